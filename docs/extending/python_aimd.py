"""A window law in Python: +a·wⁿ per unmarked ACK, −b·wᵐ per marked ACK or loss (seed 002
Section IV-A), with RFC 5681 Section 3.1's slow start; the built-in `aimd` law."""

from aqmlab.extensions import WindowLaw


class PythonAimd(WindowLaw):
    ecn_per_ack = True  # every ACK reaches on_ack, with ack.ece set when it echoes a mark

    def __init__(self, a=1.0, n=-1.0, b=0.5, m=1.0):
        self.a, self.n, self.b, self.m = a, n, b, m

    def on_ack(self, ack):
        if ack.acked == 0:
            return
        if ack.ece:  # −b·wᵐ per marked ACK, at least one segment (RFC 3168 Section 6.1.2)
            self.cwnd = self.ssthresh = max(self.cwnd - self.b * self.cwnd**self.m, 1.0)
        elif self.cwnd < self.ssthresh:
            self.cwnd += 1.0  # slow start (RFC 5681 Section 3.1)
        else:
            self.cwnd += self.a * self.cwnd**self.n

    def reduced(self, event):  # one decrease at w = min(FlightSize, cwnd), at least 2 (RFC 5681 eq. (4))
        w = min(event.in_flight, self.cwnd)
        return max(w - self.b * w**self.m, 2.0)

    def on_loss(self, event):
        self.cwnd = self.ssthresh = self.reduced(event)

    def on_timeout(self, event):
        self.ssthresh, self.cwnd = self.reduced(event), 1.0  # RFC 5681 Section 3.1: the loss window
