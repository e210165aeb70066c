// ns-3 3.44 reference for aqmlab's benchmark dumbbell-60, as a native C++ program.
//
// Same scenario, attributes and measurements as dumbbell60.py (which uses ns-3's Python
// bindings); this variant exists so that peak memory is ns-3's own and not cling's (the
// cppyy interpreter alone takes ~630 MiB). Built by `bash setup.sh --cxx` against the
// headers and libraries of the pip wheel into build/dumbbell60, and run by
// `dumbbell60.py --backend cxx`, which passes --out FILE and reads the JSON written there.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
constexpr uint32_t kPacketBytes = 1500; // IP packet: 20 IP + 20 TCP + 12 timestamps + 1448
constexpr uint32_t kSegmentSizeTs = 1448;   // with the 12-byte timestamp option (ns-3 default)
constexpr uint32_t kSegmentSizeNoTs = 1460; // --timestamps=false
constexpr uint32_t kPppHeader = 2;

uint64_t g_txEnd = 0;
std::vector<uint64_t> g_samples;
std::vector<uint64_t> g_dropSamples;
Ptr<QueueDisc> g_red;

void
OnPhyTxEnd(Ptr<const Packet>)
{
    ++g_txEnd;
}

// Diagnostics: retransmitted segments (BulkSend's TcpRetransmission) and entries into the
// fast-recovery and loss (RTO) states (socket CongState), all flows together.
uint64_t g_retransmissions = 0;
uint64_t g_recoveries = 0;
uint64_t g_timeouts = 0;

void
OnRetransmission(Ptr<const Packet>, const TcpHeader&, const Address&, const Address&, Ptr<const TcpSocketBase>)
{
    ++g_retransmissions;
}

void
OnCongState(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    if (now == TcpSocketState::CA_RECOVERY)
    {
        ++g_recoveries;
    }
    else if (now == TcpSocketState::CA_LOSS)
    {
        ++g_timeouts;
    }
}

// Drops at the senders' access links: the device queue (DropTailQueue, 1000 p) stops when
// full and the traffic-control layer then drops (no queue disc on access links).
uint64_t g_accessDrops = 0;

void
OnAccessDrop(Ptr<const Packet>)
{
    ++g_accessDrops;
}

// Scheduled just after the application's start, once its socket exists.
void
ConnectSocket(Ptr<Application> app)
{
    Ptr<Socket> socket = DynamicCast<BulkSendApplication>(app)->GetSocket();
    socket->TraceConnectWithoutContext("CongState", MakeCallback(&OnCongState));
}

void
Sample(Time interval)
{
    g_samples.push_back(g_txEnd);
    g_dropSamples.push_back(g_red->GetStats().nTotalDroppedPackets);
    Simulator::Schedule(interval, &Sample, interval);
}

double
WallNow()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double
PeakRssMib()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024.0;
}

uint64_t
AccessDrops(const std::vector<NetDeviceContainer>& accessDevs, uint64_t tcDrops)
{
    uint64_t total = tcDrops;
    for (const auto& devs : accessDevs)
    {
        total += DynamicCast<PointToPointNetDevice>(devs.Get(0))->GetQueue()->GetTotalDroppedPackets();
    }
    return total;
}

template <typename T>
std::string
JsonList(const std::vector<T>& values)
{
    std::ostringstream out;
    out.precision(17);
    out << "[";
    for (size_t i = 0; i < values.size(); ++i)
    {
        out << (i ? ", " : "") << values[i];
    }
    out << "]";
    return out.str();
}
} // namespace

int
main(int argc, char* argv[])
{
    double began = WallNow();
    double duration = 100.0;
    uint32_t flows = 60;
    uint32_t seed = 1;
    uint32_t runNumber = 1;
    double startMax = 10.0;
    uint32_t initialCwnd = 0;
    uint32_t tcpBuffer = 4 << 20;
    bool timestamps = true;
    std::string out;

    CommandLine cmd(__FILE__);
    cmd.AddValue("duration", "simulated seconds", duration);
    cmd.AddValue("flows", "number of flows", flows);
    cmd.AddValue("seed", "RngSeedManager seed", seed);
    cmd.AddValue("run-number", "RngSeedManager run", runNumber);
    cmd.AddValue("start-max", "starts uniform in [0, this] s", startMax);
    cmd.AddValue("initial-cwnd", "segments (0: ns-3 default)", initialCwnd);
    cmd.AddValue("tcp-buffer", "TCP SndBuf/RcvBuf bytes", tcpBuffer);
    cmd.AddValue("timestamps", "TCP timestamp option (ns-3 default: on)", timestamps);
    cmd.AddValue("out", "write the JSON result here", out);
    cmd.Parse(argc, argv);

    double setupBegan = WallNow();
    const uint32_t kSegmentSize = timestamps ? kSegmentSizeTs : kSegmentSizeNoTs;
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(runNumber);

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpNewReno"));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", StringValue("ns3::TcpClassicRecovery"));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(kSegmentSize));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(timestamps));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocketBase::LimitedTransmit", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(tcpBuffer));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(tcpBuffer));
    Config::SetDefault("ns3::TcpSocket::DataRetries", UintegerValue(1000));
    if (initialCwnd > 0)
    {
        Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initialCwnd));
    }

    NodeContainer routers;
    routers.Create(2);
    Ptr<Node> left = routers.Get(0);
    Ptr<Node> right = routers.Get(1);
    NodeContainer senders;
    NodeContainer receivers;
    senders.Create(flows);
    receivers.Create(flows);
    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    stack.Install(routers);
    stack.Install(senders);
    stack.Install(receivers);

    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", StringValue("2Mbps"));
    access.SetChannelAttribute("Delay", StringValue("1ms"));
    access.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1000p"));
    PointToPointHelper recv;
    recv.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    recv.SetChannelAttribute("Delay", StringValue("1ms"));
    recv.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("100000p"));
    PointToPointHelper neck;
    neck.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    neck.SetChannelAttribute("Delay", StringValue("48ms"));
    neck.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));

    NetDeviceContainer neckDevs = neck.Install(left, right);
    std::vector<NetDeviceContainer> accessDevs;
    std::vector<NetDeviceContainer> recvDevs;
    for (uint32_t i = 0; i < flows; ++i)
    {
        accessDevs.push_back(access.Install(senders.Get(i), left));
    }
    for (uint32_t i = 0; i < flows; ++i)
    {
        recvDevs.push_back(recv.Install(right, receivers.Get(i)));
    }

    TrafficControlHelper red;
    red.SetRootQueueDisc("ns3::RedQueueDisc",
                         "MaxSize", QueueSizeValue(QueueSize("2084p")),
                         "MinTh", DoubleValue(50),
                         "MaxTh", DoubleValue(100),
                         "LInterm", DoubleValue(10),
                         "QW", DoubleValue(-1),
                         "MeanPktSize", UintegerValue(kPacketBytes),
                         "LinkBandwidth", DataRateValue(DataRate("100Mbps")),
                         "LinkDelay", TimeValue(MilliSeconds(48)),
                         "Gentle", BooleanValue(false),
                         "Wait", BooleanValue(true),
                         "UseEcn", BooleanValue(false));
    QueueDiscContainer redQdiscs = red.Install(neckDevs.Get(0));
    TrafficControlHelper reverse;
    reverse.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(QueueSize("100000p")));
    reverse.Install(neckDevs.Get(1));

    Ipv4AddressHelper addr;
    Ipv4Mask mask("255.255.255.0");
    addr.SetBase(Ipv4Address("10.0.0.0"), mask);
    addr.Assign(neckDevs);
    TrafficControlHelper noQdisc;
    std::vector<Ipv4Address> sinkAddrs;
    for (uint32_t i = 0; i < flows; ++i)
    {
        std::string a = "10.1." + std::to_string(i) + ".0";
        std::string r = "10.2." + std::to_string(i) + ".0";
        addr.SetBase(Ipv4Address(a.c_str()), mask);
        addr.Assign(accessDevs[i]);
        addr.SetBase(Ipv4Address(r.c_str()), mask);
        Ipv4InterfaceContainer ifaces = addr.Assign(recvDevs[i]);
        sinkAddrs.push_back(ifaces.GetAddress(1));
        noQdisc.Uninstall(accessDevs[i]);
        noQdisc.Uninstall(recvDevs[i]);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    for (uint32_t i = 0; i < flows; ++i)
    {
        senders.Get(i)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
            "Drop", MakeCallback(&OnAccessDrop));
    }

    uint16_t port = 5000;
    Ptr<UniformRandomVariable> startRv = CreateObject<UniformRandomVariable>();
    startRv->SetAttribute("Min", DoubleValue(0.0));
    startRv->SetAttribute("Max", DoubleValue(startMax));
    std::vector<Ptr<PacketSink>> sinks;
    std::vector<double> starts;
    for (uint32_t i = 0; i < flows; ++i)
    {
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sinkApps = sinkHelper.Install(receivers.Get(i));
        sinkApps.Start(Seconds(0.0));
        sinks.push_back(sinkApps.Get(0)->GetObject<PacketSink>());
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(sinkAddrs[i], port));
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        bulk.SetAttribute("SendSize", UintegerValue(kSegmentSize));
        ApplicationContainer apps = bulk.Install(senders.Get(i));
        double start = startRv->GetValue();
        starts.push_back(start);
        apps.Start(Seconds(start));
        apps.Get(0)->TraceConnectWithoutContext("TcpRetransmission", MakeCallback(&OnRetransmission));
        Simulator::Schedule(Seconds(start) + NanoSeconds(1), &ConnectSocket, apps.Get(0));
    }

    g_red = redQdiscs.Get(0);
    neckDevs.Get(0)->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&OnPhyTxEnd));
    Simulator::Schedule(Seconds(0), &Sample, Seconds(1.0));

    double measureStart = duration >= 50.0 ? duration - 25.0 : duration / 2.0;
    auto rxTotal = [&sinks]() {
        uint64_t total = 0;
        for (const auto& s : sinks)
        {
            total += s->GetTotalRx();
        }
        return total;
    };
    double setupS = WallNow() - setupBegan;

    double runBegan = WallNow();
    Simulator::Stop(Seconds(measureStart));
    Simulator::Run();
    uint64_t midTx = g_txEnd;
    uint64_t midDrops = g_red->GetStats().nTotalDroppedPackets;
    uint64_t midRx = rxTotal();
    uint64_t midRetx = g_retransmissions;
    uint64_t midRecoveries = g_recoveries;
    uint64_t midTimeouts = g_timeouts;
    uint64_t midAccessDrops = g_accessDrops;
    Simulator::Stop(Seconds(duration - measureStart));
    Simulator::Run();
    double runS = WallNow() - runBegan;

    const QueueDisc::Stats& stats = g_red->GetStats();
    uint64_t drops = stats.nTotalDroppedPackets;
    uint64_t totalRx = rxTotal();
    double window = duration - measureStart;
    double capacityPps = 100e6 / ((kPacketBytes + kPppHeader) * 8.0);
    std::vector<double> perSecond;
    std::vector<uint64_t> dropsPerSecond;
    for (size_t i = 1; i < g_samples.size(); ++i)
    {
        perSecond.push_back((g_samples[i] - g_samples[i - 1]) / capacityPps);
        dropsPerSecond.push_back(g_dropSamples[i] - g_dropSamples[i - 1]);
    }
    double minBin = 1e9;
    for (size_t i = static_cast<size_t>(measureStart); i < std::min(perSecond.size(), size_t(duration)); ++i)
    {
        minBin = std::min(minBin, perSecond[i]);
    }
    DoubleValue qw;
    g_red->GetAttribute("QW", qw);

    std::ostringstream json;
    json.precision(17);
    json << "{\"backend\": \"cxx\", \"duration_s\": " << duration << ", \"flows\": " << flows
         << ", \"seed\": " << seed << ", \"timestamps\": " << (timestamps ? "true" : "false")
         << ", \"segment_size\": " << kSegmentSize << ", \"import_s\": 0, \"setup_s\": " << setupS
         << ", \"run_s\": " << runS << ", \"total_s\": " << WallNow() - began
         << ", \"bottleneck_departures\": " << g_txEnd
         << ", \"bottleneck_packets_per_s\": " << g_txEnd / runS << ", \"red_drops\": " << drops
         << ", \"red_unforced_drops\": " << stats.GetNDroppedPackets(RedQueueDisc::UNFORCED_DROP)
         << ", \"red_forced_drops\": " << stats.GetNDroppedPackets(RedQueueDisc::FORCED_DROP)
         << ", \"red_q_weight\": " << qw.Get()
         << ", \"red_dequeued\": " << stats.nTotalDequeuedPackets
         << ", \"red_received\": " << stats.nTotalReceivedPackets
         << ", \"utilisation_whole_run\": " << g_txEnd / (capacityPps * duration)
         << ", \"measure_window_s\": [" << measureStart << ", " << duration << "]"
         << ", \"utilisation_window_mean\": " << (g_txEnd - midTx) / (capacityPps * window)
         << ", \"utilisation_window_min_1s\": " << minBin << ", \"loss_pct_window\": "
         << 100.0 * (drops - midDrops) / std::max<double>(1.0, (g_txEnd - midTx) + (drops - midDrops))
         << ", \"goodput_window_mbps\": " << (totalRx - midRx) * 8.0 / window / 1e6
         << ", \"goodput_whole_run_mbps\": " << totalRx * 8.0 / duration / 1e6
         << ", \"retransmissions\": " << g_retransmissions
         << ", \"fast_recoveries\": " << g_recoveries << ", \"timeouts\": " << g_timeouts
         << ", \"retransmissions_window\": " << g_retransmissions - midRetx
         << ", \"fast_recoveries_window\": " << g_recoveries - midRecoveries
         << ", \"timeouts_window\": " << g_timeouts - midTimeouts
         << ", \"access_drops\": " << AccessDrops(accessDevs, g_accessDrops)
         << ", \"access_drops_window\": " << g_accessDrops - midAccessDrops
         << ", \"utilisation_per_second\": " << JsonList(perSecond)
         << ", \"red_drops_per_second\": " << JsonList(dropsPerSecond)
         << ", \"start_times_s\": " << JsonList(starts)
         << ", \"rss_after_import_mib\": 0, \"peak_rss_mib\": " << PeakRssMib() << "}";

    g_red = nullptr;
    Simulator::Destroy();
    if (out.empty())
    {
        std::printf("%s\n", json.str().c_str());
    }
    else
    {
        std::ofstream(out) << json.str();
    }
    return 0;
}
