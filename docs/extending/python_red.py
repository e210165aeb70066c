from aqmlab.extensions import ACCEPT, DROP_EARLY, DROP_FORCED, MARK, QueuePolicy, powi


class PythonRed(QueuePolicy):  # RED: Floyd & Jacobson 1993, with ns-2 red.cc's details, as the built-in `red`
    decides_at_arrival = True  # decides at arrival only: the link runs without events

    def __init__(self, min_th=5.0, max_th=15.0, max_p=0.1, q_weight=0.002, ecn=False, mean_packet_size=1500):
        self.min_th, self.max_th, self.max_p, self.w, self.ecn = min_th, max_th, max_p, q_weight, ecn
        self.packet_bits, self.avg, self.count, self.above_min = 8.0 * mean_packet_size, 0.0, 0, False

    def on_enqueue(self, queue, packet):
        m = int(queue.link_rate_bps / self.packet_bits * queue.idle_time)  # ns-2: idle time as m arrivals
        self.avg = self.avg * powi(1.0 - self.w, m + 1) + self.w * queue.packets  # EWMA (F&J Section 4)
        self.count += 1
        if self.avg < self.min_th or queue.packets <= 1:  # ns-2: no drop with at most one packet queued
            self.above_min = False
            return ACCEPT
        if self.avg >= self.max_th:
            self.count = 0
            return DROP_FORCED
        if not self.above_min:  # the average has just crossed min_th: start counting (ns-2 `old`)
            self.count, self.above_min = 1, True
            return ACCEPT
        p_b = self.drop_probability()
        c = self.count * p_b  # uniform spacing (ns-2 wait_): no drop while count p_b < 1
        if queue.uniform() > (0.0 if c < 1.0 else p_b / (2.0 - c) if c < 2.0 else 1.0):
            return ACCEPT
        self.count = 0
        return MARK if self.ecn and packet.ecn_capable else DROP_EARLY

    def on_overflow(self):
        self.count = 0  # ns-2: a drop on a full buffer restarts the count

    def average_queue(self):
        return self.avg

    def drop_probability(self):  # p_b: 0 below min_th, linear to max_p at max_th, 1 above (F&J Section 4)
        p_b = self.max_p * (self.avg - self.min_th) / (self.max_th - self.min_th)
        return 1.0 if self.avg >= self.max_th else max(0.0, p_b)
