template <class Sh>
__device__ void finishTile(const HopperArgs& a, HopperBlock<Sh>& b,
                           Item* ring, unsigned pk, unsigned tile,
                           Item prefix, uint4 (&held)[Sh::kChunks]) {
    constexpr int kC = Sh::kChunks;
    const int rot = chunkRotation<kC>(laneId());
    const std::size_t mineAt = static_cast<std::size_t>(threadIdx.x) * Sh::kItems;
    const std::size_t at = static_cast<std::size_t>(tile) * Sh::kTile + mineAt;
    mbarWait(&b.basesIn[pk & 1u], (pk >> 1) & 1u);
    const Item running = b.warpBase[pk & 1u][warpId()] + prefix;
    uint4 v[kC];
    if (bulkTile<Sh>(a, tile)) {
        Item* const stage = ring + (pk % Sh::kStages) * Sh::kTile;
        uint4* mine = reinterpret_cast<uint4*>(stage + mineAt);
        if constexpr (Sh::kHoldTile) {
            copyChunks<kC>(held, v);
        } else {
            loadChunks<kC>(v, mine, rot);
        }
        scanChunks<kC>(v, running, a.exclusive);
        storeChunks<kC>(v, mine, rot);
        fenceProxyAsync();  // these writes, then the copy engine's reads
        namedSync(kComputeBarrier, Sh::kThreads);
        if (threadIdx.x == 0) {
            bulkStore(a.out + static_cast<std::size_t>(tile) * Sh::kTile,
                      stage, Sh::kTileBytes);
            bulkCommit();
        }
    } else {
        if constexpr (Sh::kHoldTile) {
            copyChunks<kC>(held, v);
        } else {
            loadGuarded<kC>(v, a.in, at, a.n);
        }
        scanChunks<kC>(v, running, a.exclusive);
        storeGuarded<kC>(v, a.out, at, a.n);
    }
}

