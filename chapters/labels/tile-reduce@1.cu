template <class Sh>
__device__ Item reduceTile(const HopperArgs& a, HopperBlock<Sh>& b,
                           Item* ring, unsigned k, unsigned tile,
                           uint4 (&kept)[Sh::kChunks]) {
    constexpr int kC = Sh::kChunks;
    const int rot = chunkRotation<kC>(laneId());
    const std::size_t mineAt = static_cast<std::size_t>(threadIdx.x) * Sh::kItems;
    uint4 v[kC];
    if (bulkTile<Sh>(a, tile)) {
        const uint4* mine = reinterpret_cast<const uint4*>(
            ring + (k % Sh::kStages) * Sh::kTile + mineAt);
        if constexpr (Sh::kHoldTile) {
            loadChunks<kC>(v, mine, rot);  // in order: they are kept
        } else {
#pragma unroll
            for (int i = 0; i < kC; ++i) {
                v[i] = mine[(i + rot) % kC];  // any order for a sum
            }
        }
    } else {
        loadGuarded<kC>(v, a.in,
                        static_cast<std::size_t>(tile) * Sh::kTile + mineAt,
                        a.n);
    }
    const Item sum = sumChunks<kC>(v);
    WarpScanShuffle::Scratch<1> none;
    const Item inWarp = WarpScanShuffle::inclusive<1>(sum, none);
    if (warpId() == 0) {
        if (threadIdx.x == 0) {
            bulkWaitRead();  // tile k-2's store has left its stage
        }
        __syncwarp();
    }
    const Item prefix = handOver<Sh>(a, b, k, tile, inWarp) - sum;
    if constexpr (Sh::kHoldTile) {
        copyChunks<kC>(v, kept);
    }
    return prefix;
}

