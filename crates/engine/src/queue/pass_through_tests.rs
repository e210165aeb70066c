//! `Queue::pass_through` is exactly `enqueue` then `dequeue` on an empty queue, for every
//! policy: two queues driven by the same packets and random streams, one taking the shortcut
//! whenever it is empty, must agree on every packet sent, every counter and every trace value.

use super::tests::DropsEveryNthHead;
use super::*;
use crate::packet::Packet;
use crate::rng::{stream, RngCore, StreamKind};

/// One configuration per policy, with small limits and thresholds so that drops and marks
/// happen within a few packets (the resolved forms of `examples/*.toml`, scaled down).
pub(crate) const CONFIGS: &[&str] = &[
    r#"{"kind": "drop_tail", "limit": {"packets": 3}}"#,
    r#"{"kind": "drop_tail", "limit": {"bytes": 2500}}"#,
    // Smaller than the largest packets: even an empty queue overflows.
    r#"{"kind": "drop_tail", "limit": {"bytes": 1000}}"#,
    r#"{"kind": "random_drop", "limit": {"packets": 4}, "probability": 0.3, "ecn": true}"#,
    r#"{"kind": "red", "limit": {"packets": 6}, "min_th": 0.5, "max_th": 2.0, "max_p": 0.5, "q_weight": 0.2, "gentle": true, "wait": true, "ecn": true, "mark_p": 0.5, "byte_mode": false, "queue_in_bytes": false, "instantaneous": false, "mean_packet_bytes": 1000, "link_delay_ns": 1000000, "target_delay_ns": 5000000}"#,
    r#"{"kind": "red", "limit": {"packets": 6}, "min_th": 0.5, "max_th": 2.0, "max_p": 0.5, "q_weight": 0.2, "gentle": false, "wait": false, "ecn": false, "mark_p": 0.5, "byte_mode": true, "queue_in_bytes": true, "instantaneous": false, "mean_packet_bytes": 1000, "link_delay_ns": 1000000, "target_delay_ns": 5000000}"#,
    r#"{"kind": "adaptive_red", "limit": {"packets": 6}, "min_th": 0.5, "max_th": 2.0, "max_p": 0.2, "q_weight": 0.2, "alpha": 0.01, "beta": 0.9, "top": 0.5, "bottom": 0.01, "gentle": true, "wait": true, "ecn": true, "byte_mode": false, "queue_in_bytes": false, "target_delay_ns": 5000000, "interval_ns": 5000000, "mean_packet_bytes": 1000, "link_delay_ns": 1000000}"#,
    r#"{"kind": "pi", "limit": {"packets": 6}, "a": 0.01, "b": 0.009, "sampling_frequency_hz": 1000.0, "q_ref": 1.0, "ecn": true, "queue_in_bytes": false}"#,
    r#"{"kind": "rem", "limit": {"packets": 6}, "gamma": 0.1, "alpha": 0.1, "phi": 1.5, "target_backlog": 1.0, "update_interval_ns": 1000000, "ecn": true, "queue_in_bytes": false, "mean_packet_bytes": null}"#,
    r#"{"kind": "codel", "limit": {"packets": 6}, "target_ns": 100000, "interval_ns": 1000000, "ecn": true, "mtu_bytes": 1000}"#,
    r#"{"kind": "pie", "limit": {"packets": 6}, "target_ns": 100000, "update_interval_ns": 1000000, "alpha": 0.125, "beta": 1.25, "max_burst_ns": 0, "ecn": true, "mark_ecn_threshold": 0.1, "derandomize": false, "cap_drop_adjustment": true, "mean_packet_bytes": null}"#,
    r#"{"kind": "threshold", "limit": {"packets": 6}, "q_th": 1.0, "ecn": true, "queue_in_bytes": false}"#,
    r#"{"kind": "ered", "limit": {"packets": 6}, "gamma": 0.5, "alpha": 1.0, "p_min": 0.05, "p_max": 0.5, "b_min": 1.0, "delay_scale_ns": 1000000, "averaged": true, "q_weight": 0.2, "ecn": true, "queue_in_bytes": false, "mean_packet_bytes": 1000}"#,
    r#"{"kind": "avq", "limit": {"packets": 6}, "gamma": 0.5, "alpha": 0.15, "virtual_buffer": 2.0, "ecn": true, "queue_in_bytes": false, "mean_packet_bytes": 1000}"#,
    r#"{"kind": "red_vq", "gamma": 0.5, "red": {"limit": {"packets": 6}, "min_th": 0.5, "max_th": 2.0, "max_p": 0.5, "q_weight": -1.0, "gentle": true, "wait": true, "ecn": true, "mark_p": 0.5, "byte_mode": false, "queue_in_bytes": false, "instantaneous": false, "mean_packet_bytes": 1000, "link_delay_ns": 1000000, "target_delay_ns": 5000000}}"#,
];

/// 8 Mb/s: a 1000-byte packet takes 1 ms, so a few packets per millisecond overload it.
const RATE_BPS: u64 = 8_000_000;

fn build(json: &str) -> Queue {
    let config: QueueConfig = serde_json::from_str(json).expect("a valid queue configuration");
    let context = LinkContext { rate_bps: RATE_BPS, mean_packet_bytes: 1000 };
    let policy = build_policy(&config, context, "queue").expect("a valid policy");
    Queue::new(config.limit(), RATE_BPS, policy)
}

/// Everything observable of a queue, NaN-safe (bit patterns of the trace values).
fn observe(queue: &Queue) -> (QueueCounters, u32, u64, Option<Time>, [u64; 3]) {
    let traces = [queue.average_queue().to_bits(), queue.drop_probability().to_bits(), queue.virtual_queue().to_bits()];
    (queue.counters, queue.len_packets(), queue.len_bytes(), queue.idle_since(), traces)
}

fn sent(packet: Option<Packet>) -> Option<(u64, Ecn, Time)> {
    packet.map(|p| (p.seq, p.ecn, p.enqueued_at))
}

fn drive(shortcut: &mut Queue, reference: &mut Queue, config: &str) -> u64 {
    let mut script = stream(3, StreamKind::Traffic, 0);
    let (mut rng_a, mut rng_b) = (stream(5, StreamKind::Queue, 0), stream(5, StreamKind::Queue, 0));
    let mut now: Time = 0;
    let mut shortcuts = 0;
    for seq in 0..20_000u64 {
        now += script.gen_range(0..400_000);
        let ecn = if script.gen_bool(0.7) { Ecn::Ect } else { Ecn::NotEct };
        let size = script.gen_range(40..1500);
        let mut packet = Packet::test_data(size, ecn, 0);
        packet.seq = seq;
        if shortcut.len_packets() == 0 && script.gen_bool(0.6) {
            // An idle link: the engine's shortcut against its enqueue-then-dequeue.
            shortcuts += 1;
            let a = shortcut.pass_through(packet, now, &mut rng_a);
            let b = match reference.enqueue(packet, now, &mut rng_b) {
                Verdict::Drop(_) => None,
                _ => reference.dequeue(now, &mut rng_b),
            };
            assert_eq!(sent(a), sent(b), "{config}: packet {seq}");
        } else {
            shortcut.enqueue(packet, now, &mut rng_a);
            reference.enqueue(packet, now, &mut rng_b);
            while script.gen_bool(0.45) {
                let (a, b) = (shortcut.dequeue(now, &mut rng_a), reference.dequeue(now, &mut rng_b));
                assert_eq!(sent(a), sent(b), "{config}: dequeue after packet {seq}");
            }
        }
        assert_eq!(observe(shortcut), observe(reference), "{config}: after packet {seq}");
    }
    shortcuts
}

#[test]
fn pass_through_is_enqueue_then_dequeue_for_every_policy() {
    for config in CONFIGS {
        let (mut shortcut, mut reference) = (build(config), build(config));
        let shortcuts = drive(&mut shortcut, &mut reference, config);
        let c = reference.counters;
        assert!(shortcuts > 1000, "{config}: only {shortcuts} packets took the shortcut");
        // The scripts reach the interesting paths: drops (and marks, where the policy marks).
        assert!(c.dropped() > 0, "{config}: no drop");
    }
}

#[test]
fn pass_through_follows_dequeue_side_drops_and_marks() {
    let policy = || Box::new(DropsEveryNthHead { first: 3, every: 3, mark: MarkReason::Forced, heads: 0 });
    let (mut shortcut, mut reference) =
        (Queue::new(Limit::Packets(4), RATE_BPS, policy()), Queue::new(Limit::Packets(4), RATE_BPS, policy()));
    drive(&mut shortcut, &mut reference, "every third head dropped");
    let c = reference.counters;
    assert!(c.dropped_on_dequeue > 1000 && c.marked > 1000, "{c:?}");
}
