template <class Sh>
class HopperScan {
public:
    // Descriptors for every tile of maxItems, one spare, then the counters.
    static std::size_t scratchBytes(std::size_t maxItems) {
        return ((maxItems + Sh::kTile - 1) / Sh::kTile + 2) * sizeof(Descriptor);
    }

    explicit HopperScan(std::size_t maxItems)
        : maxTiles_((maxItems + Sh::kTile - 1) / Sh::kTile) {
        CUDA_CHECK(cudaFuncSetAttribute(
            hopperScanKernel<Sh>, cudaFuncAttributeMaxDynamicSharedMemorySize,
            static_cast<int>(Sh::kSharedBytes)));
        int device = 0;
        int sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
                                          device));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &blocksPerSm_, hopperScanKernel<Sh>, Sh::kLaunchThreads,
            Sh::kSharedBytes));
        grid_ = static_cast<unsigned>(std::max(1, blocksPerSm_) * sms);
        CUDA_CHECK(cudaMalloc(&status_, scratchBytes(maxItems)));
        CUDA_CHECK(cudaMemset(status_, 0, scratchBytes(maxItems)));
        counters_ = reinterpret_cast<unsigned*>(status_ + maxTiles_ + 1);
    }
    HopperScan(const HopperScan&) = delete;
    HopperScan& operator=(const HopperScan&) = delete;
    ~HopperScan() { cudaFree(status_); }  // at exit; errors were seen before

    int blocksPerSm() const { return blocksPerSm_; }
    void operator()(const Item* in, Item* out, std::size_t n, bool exclusive) {
        if (n == 0) {
            return;
        }
        const std::size_t tiles = (n + Sh::kTile - 1) / Sh::kTile;
        if (tiles > maxTiles_) {
            std::fprintf(stderr, "HopperScan: %zu items exceed its scratch\n",
                         n);
            std::exit(EXIT_FAILURE);
        }
        if (epoch_ == 0 || epoch_ == kMaxEpoch) {
            CUDA_CHECK(cudaMemsetAsync(status_, 0,
                                       (maxTiles_ + 2) * sizeof(Descriptor), 0));
            epoch_ = 0;
        }
        ++epoch_;
        const bool bulkOk =
            reinterpret_cast<std::uintptr_t>(in) % kBulkAlign == 0 &&
            reinterpret_cast<std::uintptr_t>(out) % kBulkAlign == 0;
        const HopperArgs args{in,     out,       status_,
                              counters_, n,      static_cast<unsigned>(tiles),
                              epoch_, exclusive, bulkOk};
        const unsigned grid =
            static_cast<unsigned>(std::min<std::size_t>(grid_, tiles));
        hopperScanKernel<Sh><<<grid, Sh::kLaunchThreads, Sh::kSharedBytes>>>(
            args);
        CUDA_CHECK(cudaGetLastError());
    }

private:
    std::size_t maxTiles_;
    Descriptor* status_ = nullptr;
    unsigned* counters_ = nullptr;
    unsigned epoch_ = 0;
    int blocksPerSm_ = 0;
    unsigned grid_ = 0;
};

