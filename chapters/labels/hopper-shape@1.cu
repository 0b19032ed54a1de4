// Who finds a tile's total and publishes its aggregate.
enum class Handoff {
    kBlockScan,     // step 1: the compute warps, behind a barrier; thread 0
    kLookbackWarp,  // step 2: the look-back warp, from the warps' totals
    kLastWarp,      // step 3: the last compute warp to hand its total over
};

template <int kThreadsArg, int kItemsArg, int kStagesArg, int kMinBlocksArg,
          bool kHoldTileArg, Handoff kHandoffArg>
struct HopperShape {
    static constexpr int kThreads = kThreadsArg;  // the compute threads
    static constexpr int kItems = kItemsArg;
    static constexpr int kStages = kStagesArg;
    // __launch_bounds__: blocks per SM the registers must allow (1: any).
    static constexpr int kMinBlocks = kMinBlocksArg;
    // The compute threads keep their items in registers between the passes.
    static constexpr bool kHoldTile = kHoldTileArg;
    static constexpr Handoff kHandoff = kHandoffArg;

    static constexpr int kWarps = kThreads / kWarpSize;
    static constexpr int kLaunchThreads = kThreads + kWarpSize;
    static constexpr int kTile = kThreads * kItems;
    static constexpr int kChunks = kItems / 4;  // uint4s per thread
    // Tiles claimed ahead of the one being reduced: every stage but two.
    static constexpr int kAhead = kStages - 2;
    static constexpr unsigned kTileBytes = kTile * sizeof(Item);
    static constexpr std::size_t kSharedBytes = kStages * kTileBytes;

    static_assert(kThreads % kWarpSize == 0 && kLaunchThreads <= 1024,
                  "whole warps, within the block limit");
    static_assert(kWarps <= kWarpSize, "one warp total per look-back lane");
    static_assert(kItems % 4 == 0, "a thread's items are whole uint4s");
    static_assert(kStages >= 3, "one stage landing ahead of two in use");
    static_assert(kTileBytes % kBulkAlign == 0, "bulk copies are 16-byte");
    static_assert(kTileBytes < (1u << 20), "an mbarrier counts < 2^20 bytes");
    static_assert(kSharedBytes <= 227 * 1024, "sm_90's shared memory/block");
    static_assert(kTile <= kGuardItems, "the guard tail outlasts a tile");
};

