    for (int r = 0; r < kRounds; ++r) {
        if (prefetch && (r == 0 || !v.prefetchOnce)) {
            CUDA_CHECK(cudaEventRecord(t.phaseStart));
            CUDA_CHECK(prefetchTo(u.table, p.tableBytes, device));
            CUDA_CHECK(prefetchTo(u.keys, p.keyBytes, device));
            CUDA_CHECK(prefetchTo(u.out, p.outBytes, device));
            CUDA_CHECK(cudaEventRecord(t.phaseStop));
            row.moveMs += elapsedMs(t.phaseStart, t.phaseStop);
        }

        CUDA_CHECK(cudaEventRecord(t.phaseStart));
        gatherAccumulate<<<blocksFor(p.n), kThreadsPerBlock>>>(
            u.table, u.keys, u.out, p.n, scaleFor(r));
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(t.phaseStop));
        row.roundMs[r] = elapsedMs(t.phaseStart, t.phaseStop);
        row.kernelMs += row.roundMs[r];

        // The kernel has finished: the host may read the table now.
        if (tableChecksum(u.table, p.tableElems) != want) {
            *badRounds += 1;
        }
    }
