"""TCP settings of a flow group: the sender/receiver machinery shared by every
congestion-control algorithm (RFC 5681, RFC 6582, RFC 6298, RFC 3168, RFC 3042; SACK:
RFC 2018 and RFC 6675)."""

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from aqmlab import units
from aqmlab._declarations import Engine, engine_fields
from aqmlab._fields import MAX_WINDOW, Model, PacketSize, PositiveDuration, Window, default_of
from aqmlab.congestion import PER_ACK_ECN, CongestionControl
from aqmlab.kinds.cc_reno import Reno

#: A loss-recovery option: sent inside the engine's `recovery` table (`Tcp._resolved_recovery`).
RECOVERY = Engine(omit=True)
#: A sender option the engine defaults alike (`#[serde(default)]`): sent only when set.
WHEN_SET = Engine(omit_default=True)


def _cc_from_name(value: Any) -> Any:
    return {"kind": value} if isinstance(value, str) else value


#: The SACK scoreboard options that change RFC 6675's recovery (ns-2 TCP-Linux's, docs/sack.md)
#: and their defaults: each needs `sack = true` with `sack_recovery = "rfc6675"`.
SACK_SCOREBOARD_DEFAULTS: dict[str, str] = {
    "loss_marking": "rfc6675",
    "timeout_scoreboard": "clear",
    "timeout_recovery": "rfc6675",
    "recovery_exit_scoreboard": "keep",
    "flight_outside_recovery": "rfc5681",
}


class Tcp(Model):
    """TCP sender/receiver settings shared by every congestion-control algorithm."""

    cc: Annotated[CongestionControl, Engine(convert=lambda cc: cc.resolved())] = Field(default_factory=default_of(Reno))
    """The congestion-control algorithm (window law): a name such as "cubic" or a table with
    `kind` and its parameters (aqmlab.congestion; docs/congestion/)."""
    recovery: Annotated[Literal["new_reno", "reno", "tahoe"], RECOVERY] = "new_reno"
    """Loss recovery without SACK: "new_reno" (RFC 6582 fast recovery with partial ACKs),
    "reno" (RFC 5681 Section 3.2 fast recovery, left on the first new ACK, partial ones
    included: ns-2's Agent/TCP/Reno) or "tahoe" (fast retransmit, then slow start from one
    segment). See docs/packet.md, "Loss recovery"."""
    packet_size: PacketSize = "1500B"
    """Size of a full data packet on the wire, headers included (ns-2's packetSize_ plus
    header); the payload is packet_size − header_size."""
    header_size: Annotated[PacketSize, Engine(key="header_bytes")] = "40B"
    """TCP/IP header bytes in every data packet; also the size of a pure ACK."""
    initial_window: Window = 2.0
    """Congestion window at the start, segments (RFC 5681 Section 3.1 allows 2 to 4)."""
    initial_ssthresh: float = Field(default=1.0e9, gt=0.0, le=1.0e9, allow_inf_nan=False)
    """Slow-start threshold at the start, segments; the default is "unlimited", so the first
    slow start ends at the first loss or mark (RFC 5681 Section 3.1: "arbitrarily high")."""
    max_window: Window = Field(default=MAX_WINDOW, ge=1.0)
    """The receiver's window, segments: the sender never has more outstanding; the default, the
    upper bound, is unlimited in practice (10 million segments: 15 GB of 1500-byte packets)."""
    min_rto: PositiveDuration = "200ms"
    """Lower bound of the retransmission timeout (RFC 6298 Section 2.4 says 1 s; ns-2 and
    Linux use 200 ms, the default)."""
    initial_rto: PositiveDuration = "1s"
    """Retransmission timeout before the first RTT sample (RFC 6298 Section 2.1)."""
    max_rto: PositiveDuration = "60s"
    """Upper bound of the retransmission timeout after back-offs (RFC 6298 Section 2.5)."""
    delayed_ack: bool = False
    """Receiver acknowledges every second segment, or after `delayed_ack_timeout` (RFC 1122
    Section 4.2.3.2); off: one ACK per segment (ns-2's default TCPSink)."""
    delayed_ack_timeout: PositiveDuration = "100ms"
    """With `delayed_ack`: longest wait before a lone segment is acknowledged."""
    ecn: bool = False
    """Negotiate ECN (RFC 3168): data packets are ECN-capable, queues with `ecn` mark them
    instead of dropping, and the sender reduces its window once per window of marks."""
    ecn_echo: Literal["rfc3168", "per_packet"] = "rfc3168"
    """"rfc3168": ECE on every ACK from a CE mark until CWR (RFC 3168 Section 6.1.3);
    "per_packet": ECE on the ACK of each CE-marked packet only (as DCTCP/AccECN), needed by
    laws reacting per marked ACK (aimd, illinois_like, africa_like)."""
    dupack_threshold: int = Field(default=3, ge=1, le=2**32 - 1)
    """Duplicate ACKs that trigger a fast retransmit (DupThresh, RFC 5681 Section 3.2; RFC 6675
    Section 2)."""
    limited_transmit: bool = False
    """Limited Transmit (RFC 3042): a new segment on each of the first two duplicate ACKs (with
    SACK, RFC 6675 Section 5 step (3): while cwnd − pipe allows); those segments are not
    counted in the FlightSize that sets ssthresh (RFC 5681 Section 3.2 step 2). Off by default;
    ns-2's TCP agents have it on (`singledup_ 1`)."""
    sack: Annotated[bool, RECOVERY] = False
    """SACK blocks (RFC 2018) and SACK-based loss recovery (RFC 6675) instead of NewReno's
    fast recovery; see docs/sack.md. Off by default (ns-2's Agent/TCP/Newreno has none)."""
    partial_ack_timer: Annotated[Literal["impatient", "slow_but_steady"], RECOVERY] = "impatient"
    """NewReno partial ACKs (RFC 6582 Section 4): "impatient" restarts the retransmission timer
    on the first partial ACK only (RFC 6582 Section 3.2 step 3; ns-2 and ns-3 do the same), so
    many losses in one window end in a timeout; "slow_but_steady" restarts it on every partial
    ACK (one loss repaired per RTT, however many)."""
    sack_recovery: Annotated[Literal["rfc6675", "prr"], RECOVERY] = "rfc6675"
    """With `sack`: how much is sent per ACK during loss recovery. "rfc6675" (default): while
    cwnd − pipe >= 1 segment (RFC 6675 Section 5, ns-3's TcpClassicRecovery); "prr":
    Proportional Rate Reduction (RFC 6937, PRR-SSRB; Linux's and ns-3's default). "prr" needs
    sack = true. See docs/sack.md."""
    loss_flight_size: Annotated[Literal["rfc5681", "pipe"], RECOVERY] = "rfc5681"
    """With `sack`: FlightSize when loss recovery starts (ssthresh = FlightSize / 2 for Reno).
    "rfc5681" (default): snd_nxt − snd_una less the limited-transmit segments (RFC 6675 step
    4.2, RFC 5681 eq. (4)); "pipe": RFC 6675's pipe, SACKed and lost segments excluded, as
    ns-3 does (docs/sack.md)."""
    recovery_exit_credit: Annotated[Literal["none", "cumulative"], RECOVERY] = "none"
    """The ACK that ends loss recovery (Reno, NewReno or SACK). "none" (default): cwnd = ssthresh and
    nothing more (RFC 6582 Section 3.2 step 3, RFC 6675 Section 5 (A)); "cumulative": then the
    window law counts every segment that ACK covers, as ns-3's TcpSocketBase::ProcessAck does
    (IncreaseWindow(tcb, segsAcked)); for comparisons with ns-3 (docs/validation.md)."""
    prr_delivered: Annotated[Literal["rfc6937", "ns3"], RECOVERY] = "rfc6937"
    """With sack_recovery = "prr": PRR's DeliveredData. "rfc6937" (default): change in snd.una
    + change in SACKed (RFC 6937 Section 3); "ns3": as ns-3 3.44's TcpPrrRecovery receives it,
    one segment more per ACK that SACKs new data (RFC 6937's estimate for a duplicate ACK
    without SACK, added on top) until prr_delivered reaches RecoverFS, and an ACK that both
    SACKs and advances snd.una counted twice. For comparisons with ns-3 (docs/sack.md)."""
    ecn_reduction: Annotated[Literal["immediate", "prr"], WHEN_SET] = "immediate"
    """With `ecn`: how the window comes down after an ECN echo. "immediate" (default): halved
    at once (RFC 3168 Section 6.1.2); "prr": ssthresh at once, then paced by Proportional Rate
    Reduction (RFC 6937 Section 3) until the marked window is acknowledged, without window
    growth meanwhile, a loss in that window continuing the same reduction, as Linux's CWR
    state (since 3.7) and ns-3 with its PRR recovery do (docs/sack.md)."""
    cwr_on_retransmit: Annotated[bool, WHEN_SET] = False
    """With `ecn`: set CWR on the first segment sent after a window reduction even if it is a
    retransmission, as ns-2 2.35's agents do by default (`SetCWRonRetransmit_ true`, tcp.cc
    TcpAgent::output), so the receiver stops echoing ECE after a timeout's first
    retransmission. Off (default): CWR on the first new data segment only (RFC 3168 Section
    6.1.2, "SHOULD NOT be set on retransmitted packets"). No effect without `ecn`. For
    comparisons with ns-2."""
    ecn_retransmit: Annotated[Literal["not_ect", "ect"], WHEN_SET] = "not_ect"
    """With `ecn`: whether retransmitted data packets are ECN-capable. "not_ect" (default): RFC
    3168 Section 6.1.5 (an AQM drops a retransmission it would have marked); "ect": every data
    packet is ECT, as ns-2 2.35's agents send them (tcp.cc TcpAgent::output). For comparisons
    with ns-2 (docs/validation-ns2.md)."""
    rto_restart: Annotated[Literal["new_data", "every_ack"], WHEN_SET] = "new_data"
    """Which ACKs restart the retransmission timer while data is outstanding. "new_data"
    (default): those that acknowledge new data (RFC 6298 Section 5.3); "every_ack": every ACK,
    duplicates included, as ns-2's Agent/TCP/Linux does, so that a long fast recovery does not
    end in a timeout (docs/packet.md)."""
    rtt_sampling: Annotated[Literal["new_data", "every_ack"], WHEN_SET] = "new_data"
    """Which ACKs give the retransmission timer an RTT sample. "new_data" (default): those that
    acknowledge new data, each echoing the timestamp of the segment that triggered it;
    "every_ack": every ACK, duplicates included, with the receiver echoing TS.Recent (which a
    segment above a hole does not change, RFC 7323 Section 4.3), as ns-2 2.35's Agent/TCP/Linux
    with its sink's `ts_echo_bugfix_` (tcp-linux.cc time_processing; tcp-sink.cc
    Acker::update_ts): during a loss the duplicate ACKs' samples grow with the time since the
    last in-order segment. For comparisons with ns-2 (docs/validation-ns2.md)."""
    timer_tick: Annotated[PositiveDuration | None, WHEN_SET] = None
    """Granularity of the retransmission timer, as ns-2's `tcpTick_` (10 ms in its defaults):
    RTT samples are counted in whole ticks (at least one), RFC 6298's clock granularity G is
    one tick and the RTO a whole number of ticks. None (default): RFC 6298 with G = 1 ms and
    samples to the nanosecond (docs/packet.md)."""
    timeout_flight_size: Annotated[Literal["rfc5681", "cwnd"], RECOVERY] = "rfc5681"
    """With recovery = "new_reno" (no SACK): what a retransmission timeout halves for ssthresh.
    "rfc5681" (default): FlightSize = snd_nxt − snd_una (RFC 5681 eq. (4)); "cwnd": the
    congestion window without fast recovery's inflation, as ns-2 2.35's agents do (tcp.cc
    slowdown(CLOSE_SSTHRESH_HALF) halves window()), so a timeout inside fast recovery halves
    the recovery's ssthresh. For comparisons with ns-2."""
    fast_retransmit_guard: Annotated[Literal["ack_covers_recover", "ack_beyond_recover"], RECOVERY] = (
        "ack_covers_recover"
    )
    """With recovery = "new_reno" (no SACK): which duplicate ACKs may start a fast retransmit
    after a loss episode (fast retransmit or timeout) set `recover` to the highest segment then
    sent (RFC 6582 Section 3.2 step 2). "ack_covers_recover" (default): those of an ACK that
    acknowledges everything up to recover; "ack_beyond_recover": only those of an ACK beyond
    it ("ack_number − 1 > recover", RFC 6582 Section 3.2, the note after step 4; ns-2 2.35's Agent/TCP/Newreno,
    tcp-newreno.cc dupack_action), so the duplicate ACKs a go-back-N after a spurious timeout
    draws do not halve the window again. For comparisons with ns-2 (docs/validation-ns2.md)."""
    partial_ack_deflation: Annotated[Literal["rfc6582", "ns2"], RECOVERY] = "rfc6582"
    """With recovery = "new_reno" (no SACK): what a partial ACK takes off the window in fast
    recovery. "rfc6582" (default): the inflated window is deflated by the data acknowledged
    plus one segment and the full ACK restores cwnd = ssthresh (RFC 6582 Section 3.2 step 3);
    "ns2": as ns-2 2.35's Agent/TCP/Newreno (tcp-newreno.cc partialnewack, exit_recovery_fix_ 0),
    what exceeds the inflation comes off cwnd itself and stays off at the full ACK, which then
    grows cwnd as any new ACK. For comparisons with ns-2 (docs/validation-ns2.md)."""
    rtt_estimator: Annotated[Literal["rfc6298", "ns2", "ns2_linux"], WHEN_SET] = "rfc6298"
    """How SRTT, RTTVAR and the RTO follow the RTT samples. "rfc6298" (default): RFC 6298 in
    floating point, per-ACK samples weighted by RFC 7323 Appendix G; "ns2": ns-2 2.35's
    Agent/TCP estimator (tcp.cc rtt_update/rtt_timeout/rtt_backoff): fixed point in ticks of
    `timer_tick`, gains 1/8 and 1/4 per sample, so per-ACK samples shrink RTTVAR to a quarter
    tick and RTO to SRTT + 3/4 tick (spurious timeouts at long RTTs, as in ns-2); "ns2_linux":
    ns-2's Agent/TCP/Linux variant (tcp-linux.cc rtt_update: samples below SRTT damped as in
    Linux). "ns2" and "ns2_linux" need `timer_tick` (ns-2's tcpTick_: 10ms for Agent/TCP, 1ms
    for Agent/TCP/Linux). For comparisons with ns-2 (docs/validation-ns2.md)."""
    rate_halving: Annotated[bool, RECOVERY] = False
    """With `sack`: ns-2 2.35 TCP-Linux's rate halving during SACK loss recovery (tcp-linux.cc
    send_much, next_pkts_in_flight_): the flight comes down from the window before the cut to
    the new cwnd by one segment every second ACK instead of RFC 6675's cwnd − pipe (nothing
    until pipe < cwnd, then one per ACK). Off by default; for comparisons with ns-2."""
    lost_retransmit: Annotated[Literal["rto", "sack_above"], RECOVERY] = "rto"
    """With `sack`: a segment retransmitted during loss recovery and lost again. "rto"
    (default): RFC 6675, only the retransmission timeout repairs it; "sack_above": ns-2 2.35
    TCP-Linux's scoreboard (tcp/linux/scoreboard1.cc lines 212-222, as Linux 2.6's
    tcp_mark_lost_retrans) deems it lost again once a SACK covers a segment sent after it
    (or a retransmission sent DupThresh + 1 later arrives) and resends it without a timeout.
    For comparisons with ns-2."""
    loss_marking: Annotated[Literal["rfc6675", "fack"], RECOVERY] = "rfc6675"
    """With `sack`: which unSACKed segments are lost, and so when loss recovery starts.
    "rfc6675" (default): IsLost() (RFC 6675 Section 4: DupThresh SACKed segments above it),
    recovery at DupThresh duplicate ACKs; "fack": ns-2 2.35 TCP-Linux's forward-acknowledgement
    rule (tcp/scoreboard1.cc UpdateScoreBoard, `lost_seq_threshold = fack_ − (dupack_threshold
    + 1)`): a segment at least DupThresh + 1 below the highest SACKed one is lost, however many
    between are SACKed, and recovery starts when a segment is so marked (tcp-linux.cc
    tcp_fastretrans_alert, FLAG_DATA_LOST). For comparisons with ns-2 (docs/sack.md)."""
    timeout_scoreboard: Annotated[Literal["clear", "keep"], RECOVERY] = "clear"
    """With `sack`: the SACK scoreboard at a retransmission timeout. "clear" (default): expunged
    (RFC 2018 Section 5, RFC 6675 Section 5.1), so the go-back-N resends what the receiver
    already holds unless a later ACK reports it again; "keep": kept, as ns-2 2.35 TCP-Linux
    (tcp-linux.cc enter_loss → scoreboard1.cc MarkLoss, no ClearScoreBoard), so the go-back-N
    skips every segment SACKed before the timeout. For comparisons with ns-2 (docs/sack.md)."""
    timeout_recovery: Annotated[Literal["rfc6675", "linux_loss_state"], RECOVERY] = "rfc6675"
    """With `sack`: loss recovery after a retransmission timeout, until everything sent before
    it is acknowledged. "rfc6675" (default): the go-back-N, and no new loss recovery before the
    RecoveryPoint is acknowledged (RFC 6675 Section 5.1); "linux_loss_state": ns-2 2.35
    TCP-Linux's Loss state (tcp-linux.cc enter_loss and tcp_fastretrans_alert, "let it
    through"): everything outstanding is marked lost, SACKed segments are not in flight, and a
    segment marked lost meanwhile (a retransmission lost again with lost_retransmit =
    "sack_above", or one sent after the timeout, by loss_marking) starts a recovery at once
    with a second window reduction. For comparisons with ns-2 (docs/validation-ns2.md)."""
    recovery_exit_scoreboard: Annotated[Literal["keep", "clear"], RECOVERY] = "keep"
    """With `sack`: the SACK scoreboard when loss recovery ends. "keep" (default): the SACKed
    segments above the cumulative ACK stay (RFC 6675 Section 5 (A)); "clear": forgotten, as ns-2
    2.35 TCP-Linux does when Recovery or Loss ends (tcp-linux.cc tcp_fastretrans_alert,
    ClearScoreBoard), so the ACKs that follow rebuild it from their (at most three) blocks and a
    segment SACKed before and not reported again counts as unSACKed, and lost once it lies below
    the new highest SACKed segment by loss_marking's rule. For comparisons with ns-2
    (docs/validation-ns2.md)."""
    flight_outside_recovery: Annotated[Literal["rfc5681", "minus_sacked"], RECOVERY] = "rfc5681"
    """With `sack`: what counts as in flight outside loss recovery once the sender has sent up
    to the highest segment sent (after a timeout's go-back-N has caught up). "rfc5681"
    (default): snd_nxt − snd_una, SACKed segments included; "minus_sacked": without the SACKed
    segments, as ns-2 2.35 TCP-Linux's packets_in_flight() at all times (tcp/scoreboard1.h:
    t_seqno_ − snd_una − lost − SACKed). For comparisons with ns-2 (docs/validation-ns2.md)."""
    partial_ack_retransmit: Annotated[Literal["rfc6675", "ns3"], RECOVERY] = "rfc6675"
    """With `sack`: a partial ACK during loss recovery. "rfc6675" (default): nothing of its
    own, NextSeg() decides (RFC 6675 Section 5); "ns3": the next lost segment, or else the new
    head, is resent at once outside cwnd, as ns-3 3.44's TcpSocketBase::ProcessAck does
    (docs/sack.md)."""

    @model_validator(mode="before")
    @classmethod
    def _cc_shorthand(cls, data: Any) -> Any:
        if isinstance(data, dict) and "cc" in data:
            data = {**data, "cc": _cc_from_name(data["cc"])}
        return data

    @model_validator(mode="after")
    def _check(self) -> "Tcp":
        if units.bytes_(self.header_size) >= units.bytes_(self.packet_size):
            raise ValueError(f"header_size ({self.header_size}) must be below packet_size ({self.packet_size})")
        if units.seconds(self.min_rto) > units.seconds(self.max_rto):
            raise ValueError(f"min_rto ({self.min_rto}) must not exceed max_rto ({self.max_rto})")
        if self.ecn and self.cc.kind in PER_ACK_ECN and self.ecn_echo != "per_packet":
            raise ValueError(
                f'ecn_echo ("{self.ecn_echo}") must be "per_packet" with ecn on: '
                f"{self.cc.kind} reacts to every marked ACK"
            )
        if self.sack and self.recovery != "new_reno":
            raise ValueError(
                f"sack = true needs recovery = 'new_reno' (got {self.recovery!r}): RFC 6675 recovery "
                "replaces NewReno's fast recovery (Reno's and Tahoe's are not SACK-based)"
            )
        if self.sack_recovery == "prr" and not self.sack:
            raise ValueError(
                "sack_recovery = 'prr' needs sack = true: Proportional Rate Reduction paces RFC 6675's "
                "SACK-based loss recovery (use the default 'rfc6675' without SACK)"
            )
        if self.loss_flight_size == "pipe" and not self.sack:
            raise ValueError(
                "loss_flight_size = 'pipe' needs sack = true: pipe is RFC 6675's count from the SACK "
                "scoreboard (use the default 'rfc5681' without SACK)"
            )
        if self.prr_delivered == "ns3" and self.sack_recovery != "prr":
            raise ValueError(
                "prr_delivered = 'ns3' needs sack_recovery = 'prr': it changes how Proportional Rate "
                f"Reduction counts delivered data (got sack_recovery = {self.sack_recovery!r})"
            )
        if self.partial_ack_retransmit == "ns3" and not self.sack:
            raise ValueError(
                "partial_ack_retransmit = 'ns3' needs sack = true: it changes SACK-based loss recovery "
                "(NewReno's partial ACKs always retransmit, RFC 6582)"
            )
        if self.timeout_flight_size != "rfc5681" and (self.sack or self.recovery != "new_reno"):
            raise ValueError(
                "timeout_flight_size = 'cwnd' needs recovery = 'new_reno' without sack (SACK recovery "
                "takes the timeout's FlightSize from its scoreboard, docs/sack.md)"
            )
        if self.fast_retransmit_guard != "ack_covers_recover" and (self.sack or self.recovery != "new_reno"):
            raise ValueError(
                f"fast_retransmit_guard = {self.fast_retransmit_guard!r} needs recovery = 'new_reno' without "
                f"sack (got recovery = {self.recovery!r}, sack = {self.sack}): it is a parameter of NewReno's "
                "fast retransmit (RFC 6582)"
            )
        if self.partial_ack_deflation != "rfc6582" and (self.sack or self.recovery != "new_reno"):
            raise ValueError(
                f"partial_ack_deflation = {self.partial_ack_deflation!r} needs recovery = 'new_reno' without "
                f"sack (got recovery = {self.recovery!r}, sack = {self.sack}): it is a parameter of NewReno's "
                "fast recovery (RFC 6582)"
            )
        if self.rtt_estimator != "rfc6298" and self.timer_tick is None:
            raise ValueError(
                f"rtt_estimator = {self.rtt_estimator!r} needs timer_tick: ns-2's estimator counts in "
                "ticks of tcpTick_ (10ms in Agent/TCP, 1ms in Agent/TCP/Linux)"
            )
        if self.rate_halving and (not self.sack or self.sack_recovery != "rfc6675"):
            raise ValueError(
                "rate_halving = true needs sack = true and sack_recovery = 'rfc6675': it replaces RFC 6675's "
                f"cwnd - pipe sending rule (got sack = {self.sack}, sack_recovery = {self.sack_recovery!r})"
            )
        if self.lost_retransmit != "rto" and (not self.sack or self.sack_recovery != "rfc6675"):
            raise ValueError(
                f"lost_retransmit = {self.lost_retransmit!r} needs sack = true and sack_recovery = 'rfc6675' "
                f"(got sack = {self.sack}, sack_recovery = {self.sack_recovery!r}): it changes RFC 6675's "
                "SACK-based loss recovery"
            )
        for name, default in SACK_SCOREBOARD_DEFAULTS.items():
            value = getattr(self, name)
            if value != default and (not self.sack or self.sack_recovery != "rfc6675"):
                raise ValueError(
                    f"{name} = {value!r} needs sack = true and sack_recovery = 'rfc6675' (got sack = "
                    f"{self.sack}, sack_recovery = {self.sack_recovery!r}): it changes RFC 6675's SACK "
                    f"scoreboard (allowed without: {default!r})"
                )
        if self.ecn_retransmit == "ect" and not self.ecn:
            raise ValueError("ecn_retransmit = 'ect' needs ecn = true: it makes retransmissions ECN-capable")
        if self.ecn_reduction == "prr" and not self.ecn:
            raise ValueError("ecn_reduction = 'prr' needs ecn = true: it paces the window reduction after an ECN echo")
        if self.ecn_reduction == "prr" and self.cc.kind in PER_ACK_ECN:
            raise ValueError(
                f"ecn_reduction = 'prr' does not apply to {self.cc.kind}: it reacts to every marked ACK "
                "in its window law, not once per window (use the default 'immediate')"
            )
        return self

    def _resolved_recovery(self) -> dict[str, Any]:
        """The engine's `recovery` table: the algorithm (`kind`) and only its parameters."""
        if self.sack:
            recovery: dict[str, Any] = {"kind": "sack"}
            if self.sack_recovery == "prr":
                recovery = {"kind": "prr", "delivered": self.prr_delivered}
            recovery["loss_flight_size"] = self.loss_flight_size
            recovery["partial_ack_retransmit"] = self.partial_ack_retransmit
            if self.sack_recovery != "prr":
                recovery["rate_halving"] = self.rate_halving
                recovery["lost_retransmit"] = self.lost_retransmit
                # Only when set: the recovery tables of every earlier scenario stay as they were.
                if self.loss_marking != "rfc6675":
                    recovery["loss_marking"] = self.loss_marking
                if self.timeout_scoreboard != "clear":
                    recovery["timeout_scoreboard"] = self.timeout_scoreboard
                if self.timeout_recovery != "rfc6675":
                    recovery["timeout_recovery"] = self.timeout_recovery
                if self.recovery_exit_scoreboard != "keep":
                    recovery["recovery_exit_scoreboard"] = self.recovery_exit_scoreboard
                if self.flight_outside_recovery != "rfc5681":
                    recovery["flight_outside_recovery"] = self.flight_outside_recovery
        elif self.recovery == "new_reno":
            recovery = {
                "kind": "new_reno",
                "partial_ack_timer": self.partial_ack_timer,
                "timeout_flight_size": self.timeout_flight_size,
            }
            if self.fast_retransmit_guard != "ack_covers_recover":
                # Only when set: the recovery tables of every earlier scenario stay as they were.
                recovery["fast_retransmit_guard"] = self.fast_retransmit_guard
            if self.partial_ack_deflation != "rfc6582":
                recovery["partial_ack_deflation"] = self.partial_ack_deflation
        else:
            recovery = {"kind": self.recovery}
        if self.recovery != "tahoe":
            recovery["exit_credit"] = self.recovery_exit_credit
        return recovery

    def resolved(self) -> dict[str, Any]:
        """The engine's `TcpConfig`: the declared fields (recovery options gathered into the
        `recovery` table; sender options the engine defaults alike only when set)."""
        return {**engine_fields(self), "recovery": self._resolved_recovery()}
