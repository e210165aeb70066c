"""aqmlab: a laboratory for TCP congestion control and active queue management."""

__version__ = "0.1.0"
