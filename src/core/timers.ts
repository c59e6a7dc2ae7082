/** Node fires timers longer than 2^31-1 ms at once: the longest deadline a timer can keep. */
export const MAX_TIMER_MS = 2_147_483_647;
