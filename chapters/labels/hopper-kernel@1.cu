template <class Sh>
__global__ void __launch_bounds__(Sh::kLaunchThreads, Sh::kMinBlocks)
    hopperScanKernel(const HopperArgs a) {
    extern __shared__ __align__(128) unsigned char sharedRaw[];
    Item* const ring = reinterpret_cast<Item*>(sharedRaw);
    __shared__ HopperBlock<Sh> b;
    if (threadIdx.x == Sh::kThreads) {  // lane 0 of the look-back warp
        constexpr unsigned kTotals =
            Sh::kHandoff == Handoff::kBlockScan ? 1 : Sh::kWarps;
        for (int s = 0; s < Sh::kStages; ++s) {
            mbarInit(&b.full[s], 1);
        }
        for (int j = 0; j < 2; ++j) {
            mbarInit(&b.totalsIn[j], kTotals);
            mbarInit(&b.basesIn[j], kWarpSize);
            b.tally[j] = 0;
        }
        fenceBarrierInit();
        for (int s = 0; s < Sh::kAhead; ++s) {
            fillStage<Sh>(a, b, ring, s, atomicAdd(&a.counters[0], 1u));
        }
    }
    __syncthreads();
    if (warpId() == Sh::kWarps) {
        lookbackWarp<Sh>(a, b, ring);
    } else {
        computeWarps<Sh>(a, b, ring);
    }
}

