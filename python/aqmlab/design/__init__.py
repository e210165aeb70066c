"""Design tools: the PFTK throughput model, seed 003's queue and control laws and RED
configuration program, and buffer sizing (seed 004)."""

from aqmlab.design.buffers import bandwidth_delay_product, stanford_buffer
from aqmlab.design.control_law import equilibrium, gentle_red, recommended, red, rtt_map
from aqmlab.design.pftk import TcpModel, p_for, period, rtt_for, throughput
from aqmlab.design.queue_law import QueueLaw
from aqmlab.design.red_config import Range, RedRecommendation, operating_points, red_config

__all__ = [
    "QueueLaw",
    "Range",
    "RedRecommendation",
    "TcpModel",
    "bandwidth_delay_product",
    "equilibrium",
    "gentle_red",
    "operating_points",
    "p_for",
    "period",
    "recommended",
    "red",
    "red_config",
    "rtt_for",
    "rtt_map",
    "stanford_buffer",
    "throughput",
]
