// SPDX-License-Identifier: MIT
//
// Benchmark for chapters/device-scan.nw: times the chapter's three
// device-wide scans over a grid of tile shapes (threads per block x items
// per thread, all with 16-byte loads) and, for the single-pass look-back,
// the back-off while a predecessor is invalid. It prints a table and
// asserts nothing about speed.
//
// The kernels are the chapter's own: tests/bench/scan-sweep.sh tangles the
// chunk <<Scan Library>> into device_scan_lib.cuh, which this file
// includes, so a shape measured here is the code the chapter runs.
//
// Every row is checked before it is timed, at the timed size and at a prime,
// against CUB's scan of the same input, which is itself checked once against
// the CPU scan. A wrong row prints "wrong" and the run exits 1 at the end.

#include "device_scan_lib.cuh"

#include <thrust/equal.h>

namespace {

constexpr int kSweepLog2[] = {26, 28};
constexpr int kSweepSizes = sizeof(kSweepLog2) / sizeof(kSweepLog2[0]);

struct Sweep {
    Item* dIn;
    Item* dOut;
    Item* dRef;  // CUB's inclusive scan of dIn, checked against the CPU
    std::vector<std::size_t> sizes;
    std::vector<double> copyGBs;
    std::vector<double> cubGBs;
    int wrong = 0;

    bool matches(const ScanFn& scan, std::size_t n) {
        CUDA_CHECK(cudaMemset(dOut, kPoisonByte, n * sizeof(Item)));
        scan(dIn, dOut, n, false);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());
        return thrust::equal(thrust::device, dOut, dOut + n, dRef);
    }

    double gbs(const ScanFn& scan, std::size_t n) {
        const float ms = medianMs([&] { scan(dIn, dOut, n, false); });
        return 2.0 * static_cast<double>(n) * sizeof(Item) / (ms * 1.0e-3) /
               1.0e9;
    }

    void row(const char* strategy, int threads, int items, unsigned sleepNs,
             const ScanFn& scan) {
        std::printf("%-18s %7d %5d %7u", strategy, threads, items, sleepNs);
        for (std::size_t s = 0; s < sizes.size(); ++s) {
            if (!matches(scan, sizes[s]) || !matches(scan, kPrimeItems)) {
                std::printf("   wrong\n");
                std::fprintf(stderr, "%s, %d threads, %d items, sleep %u: "
                             "wrong scan\n", strategy, threads, items,
                             sleepNs);
                ++wrong;
                return;
            }
            const double rate = gbs(scan, sizes[s]);
            std::printf(" %9.1f %7.1f%% %6.2f", rate, 100.0 * rate / copyGBs[s],
                        rate / cubGBs[s]);
        }
        std::printf("\n");
    }
};

template <int kThreads, int kItems>
void fan(Sweep& s) {
    s.row("scan-then-fan", kThreads, kItems, 0,
          &scanThenFan<WarpScanShuffle, TileShape<kThreads, kItems, true>>);
}

template <int kThreads, int kItems>
void twoPass(Sweep& s) {
    s.row("reduce-then-scan", kThreads, kItems, 0,
          &reduceThenScan<WarpScanShuffle, TileShape<kThreads, kItems, true>>);
}

template <int kThreads, int kItems, unsigned kSleepNs>
void lookback(Sweep& s) {
    s.row("look-back", kThreads, kItems, kSleepNs,
          &decoupledLookback<WarpScanShuffle,
                             TileShape<kThreads, kItems, true>,
                             CooperativeLookback<kSleepNs>>);
}

template <unsigned kSleepNs>
void lookbackGrid(Sweep& s) {
    lookback<128, 8, kSleepNs>(s);
    lookback<128, 12, kSleepNs>(s);
    lookback<128, 16, kSleepNs>(s);
    lookback<128, 20, kSleepNs>(s);
    lookback<128, 24, kSleepNs>(s);
    lookback<256, 8, kSleepNs>(s);
    lookback<256, 12, kSleepNs>(s);
    lookback<256, 16, kSleepNs>(s);
    lookback<256, 20, kSleepNs>(s);
    lookback<256, 24, kSleepNs>(s);
    lookback<512, 8, kSleepNs>(s);
    lookback<512, 12, kSleepNs>(s);
    lookback<512, 16, kSleepNs>(s);
    lookback<512, 20, kSleepNs>(s);
}

}  // namespace

int main() {
    const int device = 0;
    CUDA_CHECK(cudaSetDevice(device));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    std::printf("GPU: %s (compute capability %d.%d), %d SMs\n", prop.name,
                prop.major, prop.minor, prop.multiProcessorCount);
    keepPoolMemory(device);

    Sweep s{};
    std::size_t freeBytes = 0;
    std::size_t totalBytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    for (int k = 0; k < kSweepSizes; ++k) {
        const std::size_t n = std::size_t{1} << kSweepLog2[k];
        if (3 * n * sizeof(Item) + kHeadroomBytes <= freeBytes) {
            s.sizes.push_back(n);
        } else {
            std::printf("2^%d items: skipped, too little device memory\n",
                        kSweepLog2[k]);
        }
    }
    if (s.sizes.empty()) {
        std::fprintf(stderr, "no sweep size fits in %zu MiB\n",
                     freeBytes / kMiB);
        return 77;
    }
    const std::size_t largest = s.sizes.back();

    std::vector<Item> hIn(largest);
    std::vector<Item> hRef(largest);
    std::vector<Item> hGot(largest);
    for (std::size_t i = 0; i < largest; ++i) {
        hIn[i] = inputItem(i);
    }
    inclusiveScanCpu(hIn.data(), hRef.data(), largest);
    void* cubTemp = nullptr;
    std::size_t cubBytes = 0;
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, cubBytes, s.dIn, s.dOut,
                                             static_cast<int>(largest)));
    CUDA_CHECK(cudaMalloc(&s.dIn, largest * sizeof(Item)));
    CUDA_CHECK(cudaMalloc(&s.dOut, largest * sizeof(Item)));
    CUDA_CHECK(cudaMalloc(&s.dRef, largest * sizeof(Item)));
    CUDA_CHECK(cudaMalloc(&cubTemp, cubBytes));
    CUDA_CHECK(cudaMemcpy(s.dIn, hIn.data(), largest * sizeof(Item),
                          cudaMemcpyHostToDevice));

    const ScanFn cub = [=](const Item* in, Item* out, std::size_t n, bool) {
        std::size_t bytes = cubBytes;
        CUDA_CHECK(cub::DeviceScan::InclusiveSum(cubTemp, bytes, in, out,
                                                 static_cast<int>(n)));
    };
    cub(s.dIn, s.dRef, largest, false);
    CUDA_CHECK(cudaMemcpy(hGot.data(), s.dRef, largest * sizeof(Item),
                          cudaMemcpyDeviceToHost));
    if (hGot != hRef) {
        std::fprintf(stderr, "CUB's scan disagrees with the CPU scan\n");
        return EXIT_FAILURE;
    }

    for (std::size_t n : s.sizes) {
        const float copyMs = medianMs([&] {
            CUDA_CHECK(cudaMemcpyAsync(s.dOut, s.dIn, n * sizeof(Item),
                                       cudaMemcpyDeviceToDevice, 0));
        });
        s.copyGBs.push_back(2.0 * n * sizeof(Item) / (copyMs * 1.0e-3) / 1e9);
        s.cubGBs.push_back(s.gbs(cub, n));
    }
    std::printf("GB/s counts 2N x 4 bytes; median of %d runs after %d "
                "warm-ups; all shapes load 16 bytes at a time\n",
                kTimedRuns, kWarmupRuns);
    std::printf("%-18s %7s %5s %7s", "strategy", "threads", "items",
                "sleep");
    for (std::size_t k = 0; k < s.sizes.size(); ++k) {
        std::printf("  GB/s 2^%d  of copy  x CUB", kSweepLog2[k]);
    }
    std::printf("\n%-34s", "copy, cudaMemcpyAsync");
    for (std::size_t k = 0; k < s.sizes.size(); ++k) {
        std::printf(" %9.1f %7.1f%% %6.2f", s.copyGBs[k], 100.0,
                    s.copyGBs[k] / s.cubGBs[k]);
    }
    std::printf("\n%-34s", "cub::DeviceScan::InclusiveSum");
    for (std::size_t k = 0; k < s.sizes.size(); ++k) {
        std::printf(" %9.1f %7.1f%% %6.2f", s.cubGBs[k],
                    100.0 * s.cubGBs[k] / s.copyGBs[k], 1.0);
    }
    std::printf("\n");

    fan<128, 4>(s);
    fan<128, 8>(s);
    fan<128, 16>(s);
    fan<256, 4>(s);
    fan<256, 8>(s);
    fan<256, 16>(s);
    fan<512, 4>(s);
    fan<512, 8>(s);
    fan<512, 16>(s);
    twoPass<128, 8>(s);
    twoPass<128, 16>(s);
    twoPass<128, 24>(s);
    twoPass<256, 4>(s);
    twoPass<256, 8>(s);
    twoPass<256, 16>(s);
    twoPass<512, 4>(s);
    twoPass<512, 8>(s);
    twoPass<512, 16>(s);
    lookback<256, 4, 0>(s);
    lookbackGrid<0>(s);
    lookbackGrid<100>(s);
    lookbackGrid<400>(s);

    CUDA_CHECK(cudaFree(cubTemp));
    CUDA_CHECK(cudaFree(s.dRef));
    CUDA_CHECK(cudaFree(s.dOut));
    CUDA_CHECK(cudaFree(s.dIn));
    if (s.wrong != 0) {
        std::fprintf(stderr, "%d configuration(s) computed a wrong scan\n",
                     s.wrong);
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}
