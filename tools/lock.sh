# shellcheck shell=bash
# lock.sh: the build tree's lock as tools/build-lock and tools/txn both
# take it, sourced by each. The lock is an flock(1) on $BOOK_LOCK;
# $BOOK_LOCK.owner names the process it is held for (a make, or a txn);
# BOOK_LOCK_HELD, exported to what that process runs, names it too, so
# that a make run inside it goes ahead rather than wait for itself.

# lock_holder: $holder, the process the lock is held for now (empty: none).
lock_holder() {
    holder=
    read -r holder 2>/dev/null <"$BOOK_LOCK.owner" || :
}
# lock_inside: whether this runs inside the process that holds the lock
# (after lock_holder).
lock_inside() {
    [ -n "${BOOK_LOCK_HELD:-}" ] && [ "$holder" = "$BOOK_LOCK_HELD" ]
}
# lock_own PID: PID is the process the lock is held for, written at once.
lock_own() {
    echo "$1" >"$BOOK_LOCK.owner.$$" && mv -f "$BOOK_LOCK.owner.$$" "$BOOK_LOCK.owner"
}
# lock_waiting: what a make that waits for the lock says, once.
lock_waiting() {
    echo "make: waiting for another make in this tree to finish" >&2
}
