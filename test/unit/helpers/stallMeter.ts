// Measures how late the event loop runs timers, so a timing assertion can tell a slow client
// from a busy process.

/**
 * Event-loop stalls (GC, this test's own rendering, other processes on 2 cores) delay every timer,
 * the client's deadline included. A 10 ms ticker records how late it ran; a request is allowed
 * the worst stall seen during its lifetime on top of SLACK_MS.
 */
export class StallMeter {
  private readonly late: Array<[number, number]> = [];
  private timer?: NodeJS.Timeout;
  private expected = 0;
  start(): void {
    this.expected = performance.now() + 10;
    this.timer = setInterval(() => {
      const now = performance.now();
      this.late.push([now, Math.max(0, now - this.expected)]);
      this.expected = now + 10;
    }, 10);
  }
  stop(): void {
    clearInterval(this.timer);
  }
  /** Worst lateness of the ticks in [from, to + 50 ms]. */
  worst(from: number, to: number): number {
    let w = 0;
    for (let i = this.late.length - 1; i >= 0 && this.late[i][0] >= from; i--) if (this.late[i][0] <= to + 50) w = Math.max(w, this.late[i][1]);
    return w;
  }
}
