template <class Sh>
__device__ void lookbackWarp(const HopperArgs& a, HopperBlock<Sh>& b,
                             Item* ring) {
    const int lane = laneId();
    for (unsigned k = 0;; ++k) {
        const unsigned tile = b.tileOf[k % Sh::kStages];
        if (tile >= a.tiles) {
            break;  // claims only grow: every later one is past the end
        }
        const int j = static_cast<int>(k & 1u);
        mbarWait(&b.totalsIn[j], (k >> 1) & 1u);
        Item total = 0;
        Item below = 0;  // the warps below this lane's, within the tile
        if constexpr (Sh::kHandoff == Handoff::kBlockScan) {
            total = b.tileTotal[j];
        } else {
            const Item t = lane < Sh::kWarps ? b.warpTotal[j][lane] : 0;
            WarpScanShuffle::Scratch<1> none;
            const Item incl = WarpScanShuffle::inclusive<1>(t, none);
            total = __shfl_sync(kFullMask, incl, Sh::kWarps - 1);
            below = incl - t;
        }
        if (lane == 0) {
            if constexpr (Sh::kHandoff == Handoff::kLookbackWarp) {
                if (tile != 0) {
                    publishState(&a.status[tile], kFlagAggregate, total, a.epoch);
                }
            }
            fillStage<Sh>(a, b, ring, static_cast<int>((k + Sh::kAhead) %
                                                       Sh::kStages),
                          claimTile<Sh>(a, k + Sh::kAhead));
        }
        const Item before =
            tile == 0 ? 0 : lookbackPrefix(a.status, tile, a.epoch);
        if (lane == 0) {
            publishState(&a.status[tile], kFlagPrefix, before + total,
                         a.epoch);
        }
        if (lane < Sh::kWarps) {
            b.warpBase[j][lane] = before + below;
        }
        mbarArrive(&b.basesIn[j]);
        __syncwarp();  // lane 0's fill of tileOf, before the next read
    }
    if (lane == 0) {
        __threadfence();  // every claim of this block has returned
        if (atomicAdd(&a.counters[1], 1u) == gridDim.x - 1) {
            a.counters[0] = 0;
            a.counters[1] = 0;
        }
    }
}

