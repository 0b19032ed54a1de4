template <class Sh>
__device__ __forceinline__ bool bulkTile(const HopperArgs& a, unsigned tile) {
    const std::size_t first = static_cast<std::size_t>(tile) * Sh::kTile;
    return tile < a.tiles && a.bulkOk && first + Sh::kTile <= a.n;
}

template <class Sh>
__device__ void fillStage(const HopperArgs& a, HopperBlock<Sh>& b,
                          Item* ring, int s, unsigned tile) {
    b.tileOf[s] = tile;
    if (bulkTile<Sh>(a, tile)) {
        mbarArriveExpectTx(&b.full[s], Sh::kTileBytes);
        bulkLoad(ring + s * Sh::kTile,
                 a.in + static_cast<std::size_t>(tile) * Sh::kTile,
                 Sh::kTileBytes, &b.full[s]);
    } else {
        mbarArrive(&b.full[s]);  // nothing to copy: the threads read it
    }
}

