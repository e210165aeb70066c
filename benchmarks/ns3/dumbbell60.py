"""ns-3 3.44 reference for aqmlab's benchmark dumbbell-60 (benchmarks/dumbbell-60/scenario.toml).

60 TCP NewReno bulk flows, each sender on its own 2 Mbps / 1 ms access link (DropTail 1000 p)
into the left router; bottleneck left -> right 100 Mbps / 48 ms with RED (packet mode,
MinTh 50, MaxTh 100, limit 2084 p, LInterm 10, QW -1, Gentle off, Wait on, no ECN); each
receiver on its own 1 Gbps / 1 ms link from the right router: two-way propagation 100 ms.
IP packets of 1500 bytes, SACK off, no delayed ACKs, MinRto 200 ms, starts uniform in
[0, 10] s, 100 s simulated. See README.md beside this file for the full mapping.

Python (ns-3's cppyy bindings) only builds the topology; the timed part is
Simulator::Run, i.e. ns-3's C++ event loop. The bottleneck departure counter and the 1 s
utilisation sampler are small C++ functions JIT-compiled by cling, so no Python runs
during the simulation.

    bash benchmarks/ns3/setup.sh
    benchmarks/ns3/.venv/bin/python benchmarks/ns3/dumbbell60.py --duration 10      # sanity
    benchmarks/ns3/.venv/bin/python benchmarks/ns3/dumbbell60.py --runs 5 --json out.json

Each run is a separate process (so peak RSS is per run); the parent prints per-run
numbers and the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

T_START = time.perf_counter()

PACKET_BYTES = 1500  # IP packet: 20 IP + 20 TCP + 12 timestamp option + 1448 payload
SEGMENT_SIZE_TS = 1448  # with the timestamp option (ns-3's default)
SEGMENT_SIZE_NO_TS = 1460  # --timestamps false
PPP_HEADER = 2  # PointToPointNetDevice adds a 2-byte PPP header on the wire
HERE = Path(__file__).resolve().parent
CXX_BINARY = HERE / "build" / "dumbbell60"


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # Linux: KiB


def current_rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024.0
    return float("nan")


# --------------------------------------------------------------------------- one run (child)

HELPERS = r"""
#include <cstdint>
#include <vector>
namespace aqmbench {
static uint64_t g_txEnd = 0;
static std::vector<uint64_t> g_samples;
static std::vector<uint64_t> g_dropSamples;
static ns3::Ptr<ns3::QueueDisc> g_red;

void OnPhyTxEnd(ns3::Ptr<const ns3::Packet>) { ++g_txEnd; }

void AttachCounter(ns3::Ptr<ns3::NetDevice> dev, ns3::Ptr<ns3::QueueDisc> red)
{
    dev->TraceConnectWithoutContext("PhyTxEnd", ns3::MakeCallback(&OnPhyTxEnd));
    g_red = red;
}

// Cumulative bottleneck departures and RED drops every `interval`, for per-second utilisation.
void Sample(ns3::Time interval)
{
    g_samples.push_back(g_txEnd);
    g_dropSamples.push_back(g_red->GetStats().nTotalDroppedPackets);
    ns3::Simulator::Schedule(interval, &Sample, interval);
}

// Diagnostics: retransmitted segments (BulkSend's TcpRetransmission), entries into the
// fast-recovery and loss (RTO) states (socket CongState), drops at the senders' access links
// (the traffic-control layer drops when the full 1000 p device queue has stopped).
static uint64_t g_retransmissions = 0, g_recoveries = 0, g_timeouts = 0, g_accessDrops = 0;

void OnRetransmission(ns3::Ptr<const ns3::Packet>, const ns3::TcpHeader&, const ns3::Address&,
                      const ns3::Address&, ns3::Ptr<const ns3::TcpSocketBase>) { ++g_retransmissions; }

void OnCongState(ns3::TcpSocketState::TcpCongState_t, ns3::TcpSocketState::TcpCongState_t now)
{
    if (now == ns3::TcpSocketState::CA_RECOVERY) { ++g_recoveries; }
    else if (now == ns3::TcpSocketState::CA_LOSS) { ++g_timeouts; }
}

void OnAccessDrop(ns3::Ptr<const ns3::Packet>) { ++g_accessDrops; }

void ConnectSocket(ns3::Ptr<ns3::Application> app)
{
    ns3::DynamicCast<ns3::BulkSendApplication>(app)->GetSocket()->TraceConnectWithoutContext(
        "CongState", ns3::MakeCallback(&OnCongState));
}

// Retransmission trace now; CongState once the application has created its socket.
void WatchFlow(ns3::Ptr<ns3::Application> app, ns3::Time start)
{
    app->TraceConnectWithoutContext("TcpRetransmission", ns3::MakeCallback(&OnRetransmission));
    ns3::Simulator::Schedule(start + ns3::NanoSeconds(1), &ConnectSocket, app);
}

void WatchSender(ns3::Ptr<ns3::Node> node)
{
    node->GetObject<ns3::TrafficControlLayer>()->TraceConnectWithoutContext("Drop", ns3::MakeCallback(&OnAccessDrop));
}

uint64_t AccessDrops(ns3::Ptr<ns3::NetDevice> dev)
{
    return ns3::DynamicCast<ns3::PointToPointNetDevice>(dev)->GetQueue()->GetTotalDroppedPackets();
}

std::vector<uint64_t> Counters() { return {g_retransmissions, g_recoveries, g_timeouts, g_accessDrops}; }

void StartSampler(ns3::Time interval) { ns3::Simulator::Schedule(ns3::Seconds(0), &Sample, interval); }
uint64_t TxEnd() { return g_txEnd; }
std::vector<uint64_t> Samples() { return g_samples; }
std::vector<uint64_t> DropSamples() { return g_dropSamples; }
void Release() { g_red = nullptr; }
}
"""


def run_once(args: argparse.Namespace) -> dict:
    t_import = time.perf_counter()
    import cppyy  # noqa: PLC0415
    from ns import ns  # noqa: PLC0415 - heavy (starts cling), so only in the child

    cppyy.cppdef(HELPERS)
    helpers = cppyy.gbl.aqmbench
    rss_after_import = current_rss_mib()
    t_setup = time.perf_counter()

    n = args.flows
    segment_size = SEGMENT_SIZE_TS if args.timestamps else SEGMENT_SIZE_NO_TS
    ns.RngSeedManager.SetSeed(args.seed)
    ns.RngSeedManager.SetRun(args.run_number)

    # ---- TCP defaults (Config::SetDefault before any socket exists)
    sd = ns.Config.SetDefault
    sd("ns3::TcpL4Protocol::SocketType", ns.StringValue("ns3::TcpNewReno"))
    sd("ns3::TcpL4Protocol::RecoveryType", ns.StringValue("ns3::TcpClassicRecovery"))
    sd("ns3::TcpSocket::SegmentSize", ns.UintegerValue(segment_size))
    sd("ns3::TcpSocket::DelAckCount", ns.UintegerValue(1))
    sd("ns3::TcpSocketBase::Sack", ns.BooleanValue(False))
    sd("ns3::TcpSocketBase::Timestamp", ns.BooleanValue(args.timestamps))
    sd("ns3::TcpSocketBase::MinRto", ns.TimeValue(ns.MilliSeconds(200)))
    sd("ns3::TcpSocketBase::LimitedTransmit", ns.BooleanValue(False))
    # Buffers large enough never to bind (aqmlab's max window is effectively unlimited;
    # ns-3's default 128 KiB would cap the window at ~90 segments).
    sd("ns3::TcpSocket::SndBufSize", ns.UintegerValue(args.tcp_buffer))
    sd("ns3::TcpSocket::RcvBufSize", ns.UintegerValue(args.tcp_buffer))
    # A flow never gives up after consecutive RTOs (ns-3 default: 6 retries).
    sd("ns3::TcpSocket::DataRetries", ns.UintegerValue(1000))
    if args.initial_cwnd is not None:
        sd("ns3::TcpSocket::InitialCwnd", ns.UintegerValue(args.initial_cwnd))

    # ---- nodes
    routers = ns.NodeContainer()
    routers.Create(2)
    left, right = routers.Get(0), routers.Get(1)
    senders, receivers = ns.NodeContainer(), ns.NodeContainer()
    senders.Create(n)
    receivers.Create(n)
    stack = ns.InternetStackHelper()
    stack.SetIpv6StackInstall(False)  # IPv4 only
    stack.Install(routers)
    stack.Install(senders)
    stack.Install(receivers)

    # ---- links
    access = ns.PointToPointHelper()
    access.SetDeviceAttribute("DataRate", ns.StringValue("2Mbps"))
    access.SetChannelAttribute("Delay", ns.StringValue("1ms"))
    access.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns.StringValue("1000p"))

    recv = ns.PointToPointHelper()
    recv.SetDeviceAttribute("DataRate", ns.StringValue("1Gbps"))
    recv.SetChannelAttribute("Delay", ns.StringValue("1ms"))
    recv.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns.StringValue("100000p"))

    neck = ns.PointToPointHelper()
    neck.SetDeviceAttribute("DataRate", ns.StringValue("100Mbps"))
    neck.SetChannelAttribute("Delay", ns.StringValue("48ms"))
    neck.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns.StringValue("1p"))  # RED holds the queue

    neck_devs = neck.Install(left, right)
    access_devs = [access.Install(senders.Get(i), left) for i in range(n)]
    recv_devs = [recv.Install(right, receivers.Get(i)) for i in range(n)]

    # ---- queue discs: RED on the bottleneck (left -> right), big FIFO on the reverse side;
    # installed before address assignment so ns-3's default (FqCoDel) is not.
    red = ns.TrafficControlHelper()
    red.SetRootQueueDisc(
        "ns3::RedQueueDisc",
        "MaxSize",
        ns.QueueSizeValue(ns.QueueSize("2084p")),
        "MinTh",
        ns.DoubleValue(50),
        "MaxTh",
        ns.DoubleValue(100),
        "LInterm",
        ns.DoubleValue(10),
        "QW",
        ns.DoubleValue(-1),
        "MeanPktSize",
        ns.UintegerValue(PACKET_BYTES),
        "LinkBandwidth",
        ns.DataRateValue(ns.DataRate("100Mbps")),
        "LinkDelay",
        ns.TimeValue(ns.MilliSeconds(48)),
        "Gentle",
        ns.BooleanValue(False),
        "Wait",
        ns.BooleanValue(True),
        "UseEcn",
        ns.BooleanValue(False),
    )
    red_qdiscs = red.Install(neck_devs.Get(0))
    reverse = ns.TrafficControlHelper()
    reverse.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", ns.QueueSizeValue(ns.QueueSize("100000p")))
    reverse.Install(neck_devs.Get(1))

    # ---- addresses and routes
    addr = ns.Ipv4AddressHelper()
    mask = ns.Ipv4Mask("255.255.255.0")
    addr.SetBase(ns.Ipv4Address("10.0.0.0"), mask)
    addr.Assign(neck_devs)
    no_qdisc = ns.TrafficControlHelper()
    sink_addrs = []
    for i in range(n):
        addr.SetBase(ns.Ipv4Address(f"10.1.{i}.0"), mask)
        addr.Assign(access_devs[i])
        addr.SetBase(ns.Ipv4Address(f"10.2.{i}.0"), mask)
        ifaces = addr.Assign(recv_devs[i])
        sink_addrs.append(ifaces.GetAddress(1))
        # Address assignment installs ns-3's default FqCoDel: remove it, so the access and
        # receiver links are plain DropTail device queues.
        no_qdisc.Uninstall(access_devs[i])
        no_qdisc.Uninstall(recv_devs[i])
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
    for i in range(n):
        helpers.WatchSender(senders.Get(i))

    # ---- applications
    port = 5000
    start_rv = ns.CreateObject[ns.UniformRandomVariable]()
    start_rv.SetAttribute("Min", ns.DoubleValue(0.0))
    start_rv.SetAttribute("Max", ns.DoubleValue(args.start_max))
    sinks = []
    starts = []
    for i in range(n):
        sink_helper = ns.PacketSinkHelper(
            "ns3::TcpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo()
        )
        sink_apps = sink_helper.Install(receivers.Get(i))
        sink_apps.Start(ns.Seconds(0.0))
        sinks.append(sink_apps.Get(0).GetObject[ns.PacketSink]())
        bulk = ns.BulkSendHelper("ns3::TcpSocketFactory", ns.InetSocketAddress(sink_addrs[i], port).ConvertTo())
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(0))
        bulk.SetAttribute("SendSize", ns.UintegerValue(segment_size))
        apps = bulk.Install(senders.Get(i))
        start = start_rv.GetValue()
        starts.append(start)
        apps.Start(ns.Seconds(start))
        helpers.WatchFlow(apps.Get(0), ns.Seconds(start))

    red_qdisc = red_qdiscs.Get(0)
    helpers.AttachCounter(neck_devs.Get(0), red_qdisc)
    helpers.StartSampler(ns.Seconds(1.0))

    duration = args.duration
    measure_start = duration - 25.0 if duration >= 50.0 else duration / 2.0
    setup_s = time.perf_counter() - t_setup

    # ---- run: to the start of the measurement window, then to the end
    run_began, run_cpu_began = time.perf_counter(), time.process_time()
    ns.Simulator.Stop(ns.Seconds(measure_start))
    ns.Simulator.Run()
    mid_tx = helpers.TxEnd()
    mid_drops = red_qdisc.GetStats().nTotalDroppedPackets
    mid_rx = sum(s.GetTotalRx() for s in sinks)
    mid_counters = list(helpers.Counters())
    mid_wall = time.perf_counter()
    ns.Simulator.Stop(ns.Seconds(duration - measure_start))
    ns.Simulator.Run()
    run_s = time.perf_counter() - run_began  # both Run() calls plus the (tiny) counter reads between
    # CPU time (user + system) of the same span: on a shared machine the wall time counts the
    # other jobs too (issue 28: ratios are quoted in CPU time when the load exceeds the cores).
    run_cpu_s = time.process_time() - run_cpu_began
    del mid_wall

    # ---- results
    tx = helpers.TxEnd()
    stats = red_qdisc.GetStats()
    drops = stats.nTotalDroppedPackets
    unforced = stats.GetNDroppedPackets(ns.RedQueueDisc.UNFORCED_DROP)
    forced = stats.GetNDroppedPackets(ns.RedQueueDisc.FORCED_DROP)
    total_rx = sum(s.GetTotalRx() for s in sinks)
    counters = list(helpers.Counters())
    access_drops = counters[3] + sum(helpers.AccessDrops(devs.Get(0)) for devs in access_devs)
    window = duration - measure_start
    wire_bits = (PACKET_BYTES + PPP_HEADER) * 8
    capacity_pps = 100e6 / wire_bits
    samples = list(helpers.Samples())
    drop_samples = list(helpers.DropSamples())
    per_second = [(b - a) / capacity_pps for a, b in zip(samples, samples[1:], strict=False)]
    window_bins = per_second[int(measure_start) : int(duration)]
    qw = ns.DoubleValue()
    red_qdisc.GetAttribute("QW", qw)
    result = {
        "duration_s": duration,
        "flows": n,
        "seed": args.seed,
        "timestamps": args.timestamps,
        "segment_size": segment_size,
        "import_s": t_setup - t_import,
        "setup_s": setup_s,
        "run_s": run_s,
        "run_cpu_s": run_cpu_s,
        "total_s": time.perf_counter() - T_START,
        "bottleneck_departures": tx,
        "bottleneck_packets_per_s": tx / run_s,
        "events_note": "ns-3 does not count events; see README",
        "red_drops": drops,
        "red_unforced_drops": unforced,
        "red_forced_drops": forced,
        "red_q_weight": qw.Get(),
        "red_dequeued": stats.nTotalDequeuedPackets,
        "red_received": stats.nTotalReceivedPackets,
        "utilisation_whole_run": tx / (capacity_pps * duration),
        "measure_window_s": [measure_start, duration],
        "utilisation_window_mean": (tx - mid_tx) / (capacity_pps * window),
        "utilisation_window_min_1s": min(window_bins) if window_bins else None,
        "loss_pct_window": 100.0 * (drops - mid_drops) / max(1, (tx - mid_tx) + (drops - mid_drops)),
        "goodput_window_mbps": (total_rx - mid_rx) * 8 / window / 1e6,
        "goodput_whole_run_mbps": total_rx * 8 / duration / 1e6,
        "retransmissions": counters[0],
        "fast_recoveries": counters[1],
        "timeouts": counters[2],
        "retransmissions_window": counters[0] - mid_counters[0],
        "fast_recoveries_window": counters[1] - mid_counters[1],
        "timeouts_window": counters[2] - mid_counters[2],
        "access_drops": access_drops,
        "access_drops_window": counters[3] - mid_counters[3],
        "utilisation_per_second": per_second,
        "red_drops_per_second": [b - a for a, b in zip(drop_samples, drop_samples[1:], strict=False)],
        "start_times_s": starts,
        "rss_after_import_mib": rss_after_import,
        "peak_rss_mib": peak_rss_mib(),
        "load_at_end": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }
    helpers.Release()
    ns.Simulator.Destroy()
    return result


# --------------------------------------------------------------------------- driver (parent)


def machine() -> dict:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    try:
        from importlib.metadata import version  # noqa: PLC0415

        ns3_version = version("ns3")
    except Exception:  # noqa: BLE001
        ns3_version = "unknown"
    return {
        "uname": subprocess.run(["uname", "-a"], capture_output=True, text=True).stdout.strip(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "ns3": ns3_version,
    }


def child_python() -> Path:
    venv = HERE / ".venv" / "bin" / "python"
    return venv if venv.is_file() else Path(sys.executable)


CHILD_OPTIONS = ("duration", "flows", "seed", "run_number", "start_max", "initial_cwnd", "tcp_buffer", "timestamps")


def child_command(args: argparse.Namespace, out: Path) -> list[str]:
    """The command of one run, writing its JSON result to `out`."""
    options = {name: getattr(args, name) for name in CHILD_OPTIONS if getattr(args, name) is not None}
    options = {k: str(v).lower() if isinstance(v, bool) else v for k, v in options.items()}
    if args.backend == "cxx":
        if not CXX_BINARY.is_file():
            sys.exit(f"{CXX_BINARY} not built: run `bash {HERE / 'setup.sh'} --cxx` first")
        return [str(CXX_BINARY), *(f"--{k.replace('_', '-')}={v}" for k, v in options.items()), f"--out={out}"]
    flags = [item for k, v in options.items() for item in (f"--{k.replace('_', '-')}", str(v))]
    return [str(child_python()), str(Path(__file__).resolve()), *flags, "--child-out", str(out)]


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


SUMMARY_KEYS = (
    "run_s",
    "run_cpu_s",
    "total_s",
    "setup_s",
    "import_s",
    "bottleneck_departures",
    "bottleneck_packets_per_s",
    "red_drops",
    "retransmissions_window",
    "timeouts_window",
    "utilisation_whole_run",
    "utilisation_window_mean",
    "utilisation_window_min_1s",
    "goodput_window_mbps",
    "peak_rss_mib",
    "rss_after_import_mib",
)


def fmt(key: str, value) -> str:
    if isinstance(value, float):
        return f"{key}={value:.4g}"
    return f"{key}={value}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=100.0, help="simulated seconds (default 100)")
    parser.add_argument("--flows", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1, help="ns-3 RngSeedManager seed (start times)")
    parser.add_argument("--run-number", type=int, default=1, help="ns-3 RngSeedManager run number")
    parser.add_argument("--start-max", type=float, default=10.0, help="starts uniform in [0, this] s")
    parser.add_argument("--initial-cwnd", type=int, default=None, help="segments (default: ns-3's, 10)")
    parser.add_argument("--tcp-buffer", type=int, default=4 << 20, help="TCP SndBuf/RcvBuf bytes (default 4 MiB)")
    parser.add_argument(
        "--timestamps",
        type=lambda v: v.lower() in ("1", "true", "yes", "on"),
        default=True,
        help="TCP timestamp option, true/false (default: ns-3's, true; segment 1448 B, "
        "else 1460 B, so IP packets are 1500 B)",
    )
    parser.add_argument("--runs", type=int, default=1, help="repeat in separate processes; report medians")
    parser.add_argument(
        "--backend",
        choices=("python", "cxx"),
        default="python",
        help="python: ns-3's Python bindings build the topology (default); "
        "cxx: the same scenario as a native C++ program (build/dumbbell60)",
    )
    parser.add_argument("--json", type=Path, default=None, help="write results (machine, runs, medians) here")
    parser.add_argument("--child-out", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child_out is not None:
        result = run_once(args)
        args.child_out.write_text(json.dumps(result))
        return

    info = machine()
    runs = []
    for k in range(args.runs):
        load_before = uptime()
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
            out = Path(f.name)
        try:
            subprocess.run(child_command(args, out), check=True)
            result = json.loads(out.read_text())
        finally:
            out.unlink(missing_ok=True)
        result.setdefault("backend", "python")
        result["uptime_before"] = load_before
        result["uptime_after"] = uptime()
        runs.append(result)
        print(f"run {k + 1}/{args.runs}: " + " ".join(fmt(key, result[key]) for key in SUMMARY_KEYS), flush=True)
        print(f"  load before: {load_before}\n  load after:  {result['uptime_after']}", flush=True)

    def med(key: str) -> float:
        return statistics.median(r[key] for r in runs)

    report = {
        "benchmark": "dumbbell-60 (ns-3 reference)",
        "machine": info,
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "backend": args.backend,
        "runs": args.runs,
        "run_s": [r["run_s"] for r in runs],
        "total_s": [r["total_s"] for r in runs],
        "median_run_s": med("run_s"),
        "median_total_s": med("total_s"),
        "run_cpu_s": [r["run_cpu_s"] for r in runs],
        "median_run_cpu_s": med("run_cpu_s"),
        "median_bottleneck_packets_per_s": med("bottleneck_packets_per_s"),
        "median_peak_rss_mib": med("peak_rss_mib"),
        "samples": runs,
    }
    print(
        f"median Simulator::Run wall time: {report['median_run_s']:.2f} s  "
        f"(total incl. import+setup {report['median_total_s']:.2f} s), "
        f"{report['median_bottleneck_packets_per_s']:.0f} bottleneck packets/s, "
        f"peak RSS {report['median_peak_rss_mib']:.0f} MiB"
    )
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2))
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
