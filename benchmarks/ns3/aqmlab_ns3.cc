// ns-3 3.44 side of aqmlab's cross-simulator harness: one program for every scenario.
//
// It knows nothing of aqmlab. It reads a *spec* (plain text, one directive per line) that
// `ns3_mapping.py` writes from an aqmlab scenario, so every translation decision is made,
// documented and tested in Python, and this file only builds what the spec says:
//
//   duration_s S | measure_start_s S | trace_interval_s S | rng_seed N | rng_run N
//   trace_flows N                      cwnd, ssthresh, RTO and smoothed RTT of the first N
//                                      flows every trace interval, and their timeout instants
//   default NAME VALUE                 Config::SetDefault(NAME, StringValue(VALUE))
//   nodes N                            nodes 0 .. N-1, IPv4 stack on all
//   link NAME A B RATE_BPS DELAY_NS QUEUE_A QUEUE_B
//                                      point-to-point link A <-> B; QUEUE_*: the device
//                                      DropTailQueue MaxSize at each end ("1000p", "1p")
//   qdisc LINK a|b TYPE [ATTR=VALUE ...]   root queue disc on that end (none: no queue disc)
//   monitor LINK a|b LABEL HEADER_BYTES    trace this end (queue disc + device queue);
//                                      HEADER_BYTES: link-layer bytes to remove (PPP: 2)
//   socket_type NODE TYPEID            TcpL4Protocol::SocketType of that node
//   flow ID SRC DST START_S MAX_BYTES SEND_SIZE   BulkSend SRC -> PacketSink on DST
//
// Run: build/aqmlab_ns3 --spec=FILE --out=RESULT.json. The result holds, per monitored link,
// samples every trace interval (queue packets and bytes; arrivals, drops, departures and
// departed IP bytes in the interval) and, per flow, the bytes delivered at the start of the
// measurement window and at the end, retransmissions, fast recoveries and timeouts; plus the
// wall time of Simulator::Run and the peak RSS.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

struct LinkSpec
{
    std::string name;
    uint32_t a;
    uint32_t b;
    uint64_t rateBps;
    uint64_t delayNs;
    std::string queueA;
    std::string queueB;
};

struct QdiscSpec
{
    std::string link;
    int side; // 0: end a, 1: end b
    std::string type;
    std::vector<std::pair<std::string, std::string>> attributes;
};

struct MonitorSpec
{
    std::string link;
    int side;
    std::string label;
    uint32_t headerBytes;
};

struct FlowSpec
{
    uint32_t id;
    uint32_t src;
    uint32_t dst;
    double start;
    uint64_t maxBytes;
    uint32_t sendSize;
};

struct Spec
{
    double duration = 0;
    double measureStart = 0;
    double traceInterval = 0.01;
    uint32_t rngSeed = 1;
    uint32_t rngRun = 1;
    uint32_t traceFlows = 0;
    uint32_t nodes = 0;
    std::vector<std::pair<std::string, std::string>> defaults;
    std::vector<LinkSpec> links;
    std::vector<QdiscSpec> qdiscs;
    std::vector<MonitorSpec> monitors;
    std::vector<std::pair<uint32_t, std::string>> socketTypes;
    std::vector<FlowSpec> flows;
};

int
Side(const std::string& word, int lineNo)
{
    NS_ABORT_MSG_UNLESS(word == "a" || word == "b", "spec line " << lineNo << ": side must be a or b");
    return word == "a" ? 0 : 1;
}

Spec
ReadSpec(const std::string& path)
{
    std::ifstream in(path);
    NS_ABORT_MSG_UNLESS(in, "cannot read spec " << path);
    Spec spec;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        std::istringstream words(line);
        std::string key;
        if (!(words >> key) || key[0] == '#')
        {
            continue;
        }
        bool ok = true;
        if (key == "duration_s") { ok = bool(words >> spec.duration); }
        else if (key == "measure_start_s") { ok = bool(words >> spec.measureStart); }
        else if (key == "trace_interval_s") { ok = bool(words >> spec.traceInterval); }
        else if (key == "rng_seed") { ok = bool(words >> spec.rngSeed); }
        else if (key == "rng_run") { ok = bool(words >> spec.rngRun); }
        else if (key == "trace_flows") { ok = bool(words >> spec.traceFlows); }
        else if (key == "nodes") { ok = bool(words >> spec.nodes); }
        else if (key == "default")
        {
            std::string name;
            std::string value;
            ok = bool(words >> name >> value);
            spec.defaults.emplace_back(name, value);
        }
        else if (key == "link")
        {
            LinkSpec l;
            ok = bool(words >> l.name >> l.a >> l.b >> l.rateBps >> l.delayNs >> l.queueA >> l.queueB);
            spec.links.push_back(l);
        }
        else if (key == "qdisc")
        {
            QdiscSpec q;
            std::string side;
            ok = bool(words >> q.link >> side >> q.type);
            q.side = Side(side, lineNo);
            std::string pair;
            while (words >> pair)
            {
                size_t eq = pair.find('=');
                NS_ABORT_MSG_IF(eq == std::string::npos, "spec line " << lineNo << ": expected ATTR=VALUE, got " << pair);
                q.attributes.emplace_back(pair.substr(0, eq), pair.substr(eq + 1));
            }
            spec.qdiscs.push_back(q);
        }
        else if (key == "monitor")
        {
            MonitorSpec m;
            std::string side;
            ok = bool(words >> m.link >> side >> m.label >> m.headerBytes);
            m.side = Side(side, lineNo);
            spec.monitors.push_back(m);
        }
        else if (key == "socket_type")
        {
            uint32_t node;
            std::string type;
            ok = bool(words >> node >> type);
            spec.socketTypes.emplace_back(node, type);
        }
        else if (key == "flow")
        {
            FlowSpec f;
            ok = bool(words >> f.id >> f.src >> f.dst >> f.start >> f.maxBytes >> f.sendSize);
            spec.flows.push_back(f);
        }
        else
        {
            NS_ABORT_MSG("spec line " << lineNo << ": unknown directive " << key);
        }
        NS_ABORT_MSG_UNLESS(ok, "spec line " << lineNo << ": malformed: " << line);
    }
    NS_ABORT_MSG_UNLESS(spec.duration > 0 && spec.nodes > 0, "spec needs duration_s and nodes");
    return spec;
}

// --- What is recorded ---------------------------------------------------------------------

struct Monitor
{
    std::string label;
    uint32_t headerBytes = 0;
    Ptr<QueueDisc> qdisc;
    Ptr<Queue<Packet>> deviceQueue;
    std::vector<std::string> attributeNames; // read back after the run (RED resolves QW)
    uint64_t departures = 0;
    uint64_t departedBytes = 0;
    // Counters at the previous sample.
    uint64_t lastArrivals = 0;
    uint64_t lastDrops = 0;
    uint64_t lastMarks = 0;
    uint64_t lastDepartures = 0;
    uint64_t lastDepartedBytes = 0;
    std::vector<double> time, queuePackets, queueBytes, arrivals, drops, marks, departuresPer, departedBytesPer;
};

struct FlowRecord
{
    Ptr<BulkSendApplication> app;
    Ptr<PacketSink> sink;
    uint64_t rxAtMeasureStart = 0;
    uint64_t retransmissions = 0;
    uint64_t fastRecoveries = 0;
    uint64_t timeouts = 0;
    uint32_t cwndBytes = 0;
    uint32_t ssthreshBytes = 0;
    double rtoS = 0;
    double srttS = 0;
    std::vector<double> timeoutTimes; // traced flows only
};

std::vector<Monitor> g_monitors;
std::vector<FlowRecord> g_flows;
std::vector<double> g_flowTraceTime;
std::vector<std::vector<double>> g_flowTraceCwnd; // [traced flow][sample], segments
std::vector<std::vector<double>> g_flowTraceSsthresh;
std::vector<std::vector<double>> g_flowTraceRto;  // s
std::vector<std::vector<double>> g_flowTraceSrtt; // s
uint32_t g_segmentSize = 1;

void
OnTxEnd(size_t monitor, Ptr<const Packet> packet)
{
    Monitor& m = g_monitors[monitor];
    ++m.departures;
    m.departedBytes += packet->GetSize() - m.headerBytes;
}

void
OnRetransmission(size_t flow, Ptr<const Packet>, const TcpHeader&, const Address&, const Address&, Ptr<const TcpSocketBase>)
{
    ++g_flows[flow].retransmissions;
}

void
OnCongState(size_t flow, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    if (now == TcpSocketState::CA_RECOVERY)
    {
        ++g_flows[flow].fastRecoveries;
    }
    else if (now == TcpSocketState::CA_LOSS)
    {
        ++g_flows[flow].timeouts;
        if (flow < g_flowTraceCwnd.size())
        {
            g_flows[flow].timeoutTimes.push_back(Simulator::Now().GetSeconds());
        }
    }
}

void
OnSsthresh(size_t flow, uint32_t, uint32_t now)
{
    g_flows[flow].ssthreshBytes = now;
}

void
OnRto(size_t flow, Time, Time now)
{
    g_flows[flow].rtoS = now.GetSeconds();
}

void
OnSrtt(size_t flow, Time, Time now)
{
    g_flows[flow].srttS = now.GetSeconds();
}

void
OnCwnd(size_t flow, uint32_t, uint32_t now)
{
    g_flows[flow].cwndBytes = now;
}

// Scheduled just after the application's start, once its socket exists.
void
ConnectSocket(size_t flow, uint32_t traceFlows)
{
    Ptr<Socket> socket = g_flows[flow].app->GetSocket();
    socket->TraceConnectWithoutContext("CongState", MakeBoundCallback(&OnCongState, flow));
    if (flow < traceFlows)
    {
        socket->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&OnCwnd, flow));
        socket->TraceConnectWithoutContext("SlowStartThreshold", MakeBoundCallback(&OnSsthresh, flow));
        socket->TraceConnectWithoutContext("RTO", MakeBoundCallback(&OnRto, flow));
        NS_ABORT_MSG_UNLESS(socket->TraceConnectWithoutContext("RTT", MakeBoundCallback(&OnSrtt, flow)),
                            "no RTT trace source");
    }
}

void
Sample(Time interval, uint32_t traceFlows)
{
    double now = Simulator::Now().GetSeconds();
    for (Monitor& m : g_monitors)
    {
        const QueueDisc::Stats& stats = m.qdisc->GetStats();
        m.time.push_back(now);
        m.queuePackets.push_back(m.qdisc->GetNPackets() + m.deviceQueue->GetNPackets());
        m.queueBytes.push_back(m.qdisc->GetNBytes() + m.deviceQueue->GetNBytes());
        uint64_t marks = stats.nTotalMarkedPackets;
        m.arrivals.push_back(stats.nTotalReceivedPackets - m.lastArrivals);
        m.drops.push_back(stats.nTotalDroppedPackets - m.lastDrops);
        m.marks.push_back(marks - m.lastMarks);
        m.departuresPer.push_back(m.departures - m.lastDepartures);
        m.departedBytesPer.push_back(m.departedBytes - m.lastDepartedBytes);
        m.lastArrivals = stats.nTotalReceivedPackets;
        m.lastDrops = stats.nTotalDroppedPackets;
        m.lastMarks = marks;
        m.lastDepartures = m.departures;
        m.lastDepartedBytes = m.departedBytes;
    }
    if (traceFlows > 0)
    {
        g_flowTraceTime.push_back(now);
        for (uint32_t i = 0; i < traceFlows; ++i)
        {
            g_flowTraceCwnd[i].push_back(double(g_flows[i].cwndBytes) / g_segmentSize);
            g_flowTraceSsthresh[i].push_back(double(g_flows[i].ssthreshBytes) / g_segmentSize);
            g_flowTraceRto[i].push_back(g_flows[i].rtoS);
            g_flowTraceSrtt[i].push_back(g_flows[i].srttS);
        }
    }
    Simulator::Schedule(interval, &Sample, interval, traceFlows);
}

void
OnMeasureStart()
{
    for (FlowRecord& f : g_flows)
    {
        f.rxAtMeasureStart = f.sink->GetTotalRx();
    }
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

// 10.0.0.0/8 carved into /30 subnets, one per link.
Ipv4Address
LinkSubnet(size_t index)
{
    NS_ABORT_MSG_IF(index >= (1u << 22), "too many links for 10.0.0.0/8 in /30 subnets");
    return Ipv4Address(0x0A000000u + uint32_t(index) * 4u);
}

} // namespace

int
main(int argc, char* argv[])
{
    double began = WallNow();
    std::string specPath;
    std::string out;
    CommandLine cmd(__FILE__);
    cmd.AddValue("spec", "scenario spec written by ns3_mapping.py", specPath);
    cmd.AddValue("out", "write the JSON result here (default: stdout)", out);
    cmd.Parse(argc, argv);
    NS_ABORT_MSG_IF(specPath.empty(), "--spec=FILE is required");
    Spec spec = ReadSpec(specPath);

    RngSeedManager::SetSeed(spec.rngSeed);
    RngSeedManager::SetRun(spec.rngRun);
    for (const auto& [name, value] : spec.defaults)
    {
        Config::SetDefault(name, StringValue(value));
    }
    for (const auto& [name, value] : spec.defaults)
    {
        if (name == "ns3::TcpSocket::SegmentSize")
        {
            g_segmentSize = std::stoul(value);
        }
    }

    NodeContainer nodes;
    nodes.Create(spec.nodes);
    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    stack.Install(nodes);

    std::map<std::string, NetDeviceContainer> devices;
    PointToPointHelper p2p;
    Ipv4AddressHelper addresses;
    Ipv4Mask mask("255.255.255.252");
    std::vector<Ipv4Address> nodeAddress(spec.nodes);
    std::vector<bool> hasAddress(spec.nodes, false);
    for (size_t i = 0; i < spec.links.size(); ++i)
    {
        const LinkSpec& l = spec.links[i];
        NS_ABORT_MSG_IF(l.a >= spec.nodes || l.b >= spec.nodes, "link " << l.name << ": unknown node");
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(l.rateBps)));
        p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(l.delayNs)));
        NetDeviceContainer devs = p2p.Install(nodes.Get(l.a), nodes.Get(l.b));
        DynamicCast<PointToPointNetDevice>(devs.Get(0))->GetQueue()->SetMaxSize(QueueSize(l.queueA));
        DynamicCast<PointToPointNetDevice>(devs.Get(1))->GetQueue()->SetMaxSize(QueueSize(l.queueB));
        addresses.SetBase(LinkSubnet(i), mask);
        Ipv4InterfaceContainer ifaces = addresses.Assign(devs);
        for (int end = 0; end < 2; ++end)
        {
            uint32_t node = end == 0 ? l.a : l.b;
            if (!hasAddress[node])
            {
                nodeAddress[node] = ifaces.GetAddress(end);
                hasAddress[node] = true;
            }
        }
        // Address assignment installs ns-3's default queue disc (FqCoDel) on every device;
        // remove it: a device without a spec'd queue disc is a plain DropTail device queue.
        TrafficControlHelper().Uninstall(devs);
        NS_ABORT_MSG_IF(devices.count(l.name), "duplicate link name " << l.name);
        devices[l.name] = devs;
    }
    std::map<std::pair<std::string, int>, Ptr<QueueDisc>> qdiscs;
    for (const QdiscSpec& q : spec.qdiscs)
    {
        NS_ABORT_MSG_UNLESS(devices.count(q.link), "qdisc on unknown link " << q.link);
        TrafficControlHelper tch;
        tch.SetRootQueueDisc(q.type);
        Ptr<QueueDisc> disc = tch.Install(devices[q.link].Get(q.side)).Get(0);
        // Attributes are set before the queue disc is initialised (at simulation start),
        // so derived values (RED's automatic QW, internal queue sizes) use them.
        for (const auto& [name, value] : q.attributes)
        {
            disc->SetAttribute(name, StringValue(value));
        }
        qdiscs[{q.link, q.side}] = disc;
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    for (const MonitorSpec& m : spec.monitors)
    {
        NS_ABORT_MSG_UNLESS(qdiscs.count({m.link, m.side}), "monitor " << m.label << ": that end has no queue disc");
        Monitor mon;
        mon.label = m.label;
        mon.headerBytes = m.headerBytes;
        mon.qdisc = qdiscs[{m.link, m.side}];
        for (const QdiscSpec& q : spec.qdiscs)
        {
            if (q.link == m.link && q.side == m.side)
            {
                for (const auto& attribute : q.attributes)
                {
                    mon.attributeNames.push_back(attribute.first);
                }
            }
        }
        Ptr<PointToPointNetDevice> dev = DynamicCast<PointToPointNetDevice>(devices[m.link].Get(m.side));
        mon.deviceQueue = dev->GetQueue();
        g_monitors.push_back(mon);
        dev->TraceConnectWithoutContext("PhyTxEnd", MakeBoundCallback(&OnTxEnd, g_monitors.size() - 1));
    }
    for (const auto& [node, type] : spec.socketTypes)
    {
        nodes.Get(node)->GetObject<TcpL4Protocol>()->SetAttribute("SocketType",
                                                                  TypeIdValue(TypeId::LookupByName(type)));
    }

    uint32_t traceFlows = std::min<uint32_t>(spec.traceFlows, spec.flows.size());
    g_flowTraceCwnd.resize(traceFlows);
    g_flowTraceSsthresh.resize(traceFlows);
    g_flowTraceRto.resize(traceFlows);
    g_flowTraceSrtt.resize(traceFlows);
    g_flows.resize(spec.flows.size());
    std::vector<double> starts;
    for (size_t i = 0; i < spec.flows.size(); ++i)
    {
        const FlowSpec& f = spec.flows[i];
        uint16_t port = 5000 + f.id % 60000;
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sinkApps = sinkHelper.Install(nodes.Get(f.dst));
        sinkApps.Start(Seconds(0.0));
        g_flows[i].sink = DynamicCast<PacketSink>(sinkApps.Get(0));
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(nodeAddress[f.dst], port));
        bulk.SetAttribute("MaxBytes", UintegerValue(f.maxBytes));
        bulk.SetAttribute("SendSize", UintegerValue(f.sendSize));
        ApplicationContainer apps = bulk.Install(nodes.Get(f.src));
        apps.Start(Seconds(f.start));
        g_flows[i].app = DynamicCast<BulkSendApplication>(apps.Get(0));
        apps.Get(0)->TraceConnectWithoutContext("TcpRetransmission", MakeBoundCallback(&OnRetransmission, i));
        Simulator::Schedule(Seconds(f.start) + NanoSeconds(1), &ConnectSocket, i, traceFlows);
        starts.push_back(f.start);
    }

    Time interval = Seconds(spec.traceInterval);
    Simulator::Schedule(interval, &Sample, interval, traceFlows);
    Simulator::Schedule(Seconds(spec.measureStart), &OnMeasureStart);
    // +1 ns: the last sample (at exactly `duration`) was scheduled after this stop event and
    // would otherwise not run.
    Simulator::Stop(Seconds(spec.duration) + NanoSeconds(1));
    double setupS = WallNow() - began;

    double runBegan = WallNow();
    Simulator::Run();
    double runS = WallNow() - runBegan;

    std::ostringstream json;
    json.precision(17);
    json << "{\"simulator\": \"ns-3.44\", \"setup_s\": " << setupS << ", \"run_s\": " << runS
         << ", \"peak_rss_mib\": " << PeakRssMib() << ", \"duration_s\": " << spec.duration
         << ", \"measure_start_s\": " << spec.measureStart << ", \"links\": {";
    for (size_t i = 0; i < g_monitors.size(); ++i)
    {
        const Monitor& m = g_monitors[i];
        const QueueDisc::Stats& stats = m.qdisc->GetStats();
        json << (i ? ", " : "") << "\"" << m.label << "\": {\"time_s\": " << JsonList(m.time)
             << ", \"queue_packets\": " << JsonList(m.queuePackets) << ", \"queue_bytes\": " << JsonList(m.queueBytes)
             << ", \"arrivals\": " << JsonList(m.arrivals) << ", \"drops\": " << JsonList(m.drops)
             << ", \"marks\": " << JsonList(m.marks) << ", \"departures\": " << JsonList(m.departuresPer)
             << ", \"departed_bytes\": " << JsonList(m.departedBytesPer)
             << ", \"total_departures\": " << m.departures << ", \"total_drops\": " << stats.nTotalDroppedPackets
             << ", \"total_arrivals\": " << stats.nTotalReceivedPackets << ", \"drops_by_reason\": {";
        bool first = true;
        for (const auto* reasons : {&stats.nDroppedPacketsBeforeEnqueue, &stats.nDroppedPacketsAfterDequeue})
        {
            for (const auto& [reason, count] : *reasons)
            {
                json << (first ? "" : ", ") << "\"" << reason << "\": " << count;
                first = false;
            }
        }
        json << "}, \"qdisc\": \""
             << m.qdisc->GetInstanceTypeId().GetName() << "\", \"qdisc_attributes\": {";
        for (size_t k = 0; k < m.attributeNames.size(); ++k)
        {
            StringValue value;
            m.qdisc->GetAttribute(m.attributeNames[k], value);
            json << (k ? ", " : "") << "\"" << m.attributeNames[k] << "\": \"" << value.Get() << "\"";
        }
        json << "}}";
    }
    std::vector<double> rxStart, rxEnd, retx, recoveries, timeouts;
    for (const FlowRecord& f : g_flows)
    {
        rxStart.push_back(double(f.rxAtMeasureStart));
        rxEnd.push_back(double(f.sink->GetTotalRx()));
        retx.push_back(double(f.retransmissions));
        recoveries.push_back(double(f.fastRecoveries));
        timeouts.push_back(double(f.timeouts));
    }
    json << "}, \"flows\": {\"start_s\": " << JsonList(starts)
         << ", \"bytes_delivered_at_measure_start\": " << JsonList(rxStart)
         << ", \"bytes_delivered\": " << JsonList(rxEnd) << ", \"retransmits\": " << JsonList(retx)
         << ", \"fast_recoveries\": " << JsonList(recoveries) << ", \"timeouts\": " << JsonList(timeouts) << "}";
    json << ", \"flow_trace\": {\"time_s\": " << JsonList(g_flowTraceTime);
    auto nested = [&json, traceFlows](const char* key, const std::vector<std::vector<double>>& rows) {
        json << ", \"" << key << "\": [";
        for (uint32_t i = 0; i < traceFlows; ++i)
        {
            json << (i ? ", " : "") << JsonList(rows[i]);
        }
        json << "]";
    };
    nested("cwnd", g_flowTraceCwnd);
    nested("ssthresh", g_flowTraceSsthresh);
    nested("rto_s", g_flowTraceRto);
    nested("srtt_s", g_flowTraceSrtt);
    std::vector<std::vector<double>> timeoutTimes;
    for (uint32_t i = 0; i < traceFlows; ++i)
    {
        timeoutTimes.push_back(g_flows[i].timeoutTimes);
    }
    nested("timeout_times_s", timeoutTimes);
    json << "}, \"total_s\": " << WallNow() - began << "}";

    g_monitors.clear();
    g_flows.clear();
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
