"""Read every ns-2 default the harness relies on from the running binary (issue 27).

    python benchmarks/ns2/defaults.py        # writes benchmarks/ns2/defaults.json

Two parts: (1) a Tcl script printing each class variable (`Class set var_`) as the `ns`
binary has it; (2) probes that measure behaviour rather than read a variable: how many
packets a DropTail and a RED queue with `limit_ 5` hold while the link is busy (a burst of 20
back-to-back packets into a slow link; the queue monitor's largest `pkts_`), and the wire size
of a TCP data packet with `packetSize_ 1460`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
NS = shutil.which("ns") or "/usr/bin/ns"

VARIABLES = (
    [
        ("Agent/TCP", v)
        for v in (
            "window_ windowInit_ packetSize_ tcpip_base_hdr_size_ ts_option_size_ tcpTick_ minrto_ maxrto_ "
            "rtxcur_init_ srtt_init_ rttvar_init_ T_SRTT_BITS T_RTTVAR_BITS rttvar_exp_ singledup_ numdupacks_ "
            "maxburst_ maxcwnd_ overhead_ ecn_ timestamps_ ts_resetRTO_ syn_ windowOption_ max_ssthresh_ "
            "tss_size_ timerfix_ bugFix_ lessCareful_ exitFastRetrans_ SetCWRonRetransmit_"
        ).split()
    ]
    + [
        ("Agent/TCP/Newreno", "newreno_changes1_"),
        ("Agent/TCP/Newreno", "partial_window_deflation_"),
        ("Agent/TCP/Newreno", "exit_recovery_fix_"),
        ("Agent/TCP/Newreno", "newreno_changes_"),
        ("Agent/TCP/Linux", "rtxcur_init_"),
        ("Agent/TCP/Linux", "maxrto_"),
        ("Agent/TCPSink", "ts_echo_rfc1323_"),
        ("Agent/TCPSink/DelAck", "interval_"),
        ("Queue", "limit_"),
        ("Queue/DropTail", "queue_in_bytes_"),
        ("Queue/DropTail", "mean_pktsize_"),
        ("Queue/DropTail", "drop_front_"),
    ]
    + [
        ("Queue/RED", v)
        for v in (
            "bytes_ queue_in_bytes_ thresh_ maxthresh_ mean_pktsize_ idle_pktsize_ q_weight_ wait_ linterm_ "
            "mark_p_ use_mark_p_ setbit_ gentle_ drop_tail_ drop_front_ drop_rand_ adaptive_ targetdelay_ "
            "ns1_compat_ cautious_"
        ).split()
    ]
)

READ = "set ns [new Simulator]\n" + "".join(
    f'if {{[catch {{puts "{cls} {var} [{cls} set {var}]"}}]}} {{ puts "{cls} {var} ?" }}\n' for cls, var in VARIABLES
)
READ += """
set t [new Agent/TCP/Linux]
puts "Agent/TCP/Linux tcpTick_(before_select_ca) [$t set tcpTick_]"
$t select_ca cubic
puts "Agent/TCP/Linux tcpTick_(after_select_ca) [$t set tcpTick_]"
$t get_ca_param cubic
"""

#: A burst of 20 packets at 1 Gb/s into a 1 Mb/s link with `limit_ 5`: the most the queue holds.
PROBE = """
set ns [new Simulator]
set a [$ns node]; set b [$ns node]; set c [$ns node]
$ns simplex-link $a $b 1Gb 1ms DropTail
$ns simplex-link $b $c 1Mb 1ms {queue}
[[$ns link $b $c] queue] set limit_ 5
{extra}
set qm [$ns monitor-queue $b $c ""]
set u [new Agent/UDP]; $u set packetSize_ 1000; $ns attach-agent $a $u
set s [new Agent/Null]; $ns attach-agent $c $s; $ns connect $u $s
set cbr [new Application/Traffic/CBR]; $cbr attach-agent $u
$cbr set packetSize_ 1000; $cbr set rate_ 500Mb; $cbr set maxpkts_ 20
set most 0
proc watch {{}} {{
    global ns qm most
    if {{[$qm set pkts_] > $most}} {{ set most [$qm set pkts_] }}
    $ns at [expr [$ns now] + 0.000005] watch
}}
$ns at 0.0 "$cbr start"; $ns at 0.0 watch
$ns at 0.5 {{ puts "held [set most] drops [$qm set pdrops_]"; exit 0 }}
$ns run
"""

#: Class defaults of a subclass hide Agent/TCP's: what a TCP-Linux agent gets after
#: `Agent/TCP set ... 7`.
HIDDEN = """
set ns [new Simulator]
foreach v {minrto_ maxrto_ rtxcur_init_} { Agent/TCP set $v 7 }
set t [new Agent/TCP/Linux]
puts "minrto_=[$t set minrto_] maxrto_=[$t set maxrto_] rtxcur_init_=[$t set rtxcur_init_]"
"""

WIRE = """
set ns [new Simulator]
set a [$ns node]; set b [$ns node]
$ns simplex-link $a $b 10Mb 1ms DropTail
$ns simplex-link $b $a 10Mb 1ms DropTail
set qm [$ns monitor-queue $a $b ""]
Agent/TCP set packetSize_ 1460
Agent/TCP set syn_ false
set t [new Agent/TCP/Newreno]; set k [new Agent/TCPSink]
$ns attach-agent $a $t; $ns attach-agent $b $k; $ns connect $t $k
set f [$t attach-app FTP]
$ns at 0.0 "$f start"
$ns at 1.0 { puts "wire [$qm set bdepartures_] [$qm set pdepartures_]"; exit 0 }
$ns run
"""


def run_tcl(text: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "d.tcl"
        path.write_text(text)
        return subprocess.run([NS, str(path)], cwd=tmp, capture_output=True, text=True, check=True).stdout


def read() -> dict:
    values: dict[str, str] = {}
    lines = run_tcl(READ).splitlines()
    for line in lines:
        words = line.split()
        if len(words) == 3 and "/" in words[0]:
            values[f"{words[0]} {words[1]}"] = words[2]
        elif line.startswith(" ") and "=" in line:  # get_ca_param cubic
            name, rest = line.strip().split(" = ", 1)
            values[f"tcp_cubic.c {name}"] = rest.split()[0]
    probes = {}
    for queue, extra, label in (
        ("DropTail", "", "DropTail"),
        ("RED", "", "RED (defaults: queue_in_bytes_ true, mean_pktsize_ 500; 1000-byte packets)"),
        ("RED", "[[$ns link $b $c] queue] set queue_in_bytes_ false", "RED queue_in_bytes_ false"),
    ):
        words = run_tcl(PROBE.format(queue=queue, extra=extra)).split()
        probes[f"Queue/{label} limit_ 5: most packets held waiting"] = int(words[1])
    hidden = run_tcl(HIDDEN).split()
    probes["Agent/TCP set minrto_/maxrto_/rtxcur_init_ 7: a new Agent/TCP/Linux has"] = " ".join(hidden)
    words = run_tcl(WIRE).split()
    probes["TCP packetSize_ 1460, syn_ false: data bytes departed / packets departed in 1 s"] = (
        f"{words[1]} / {words[2]}"
    )
    version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "ns2"], capture_output=True, text=True).stdout
    return {"ns": NS, "package": f"ns2 {version}".strip(), "variables": values, "probes": probes}


if __name__ == "__main__":
    result = read()
    (HERE / "defaults.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))
