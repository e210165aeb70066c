"""The machine description that benchmark records carry."""

import os

from aqmlab.machine import cpu_model, describe


def test_describe_names_the_machine_and_keeps_the_extras():
    info = describe(ns3="3.44", load_at_start="0.1 0.2 0.3")
    assert info["cores"] == str(os.cpu_count())
    assert info["cpu"] == cpu_model() and info["cpu"]
    assert info["python"].count(".") == 2 and info["uname"]
    assert (info["ns3"], info["load_at_start"]) == ("3.44", "0.1 0.2 0.3")
