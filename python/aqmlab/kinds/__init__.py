"""The scenario models of each kind of a tagged union (a queue discipline, a window law, a
topology, a flow group, a start or stop, a transfer, a size distribution, a path), one module
per kind, imported the first time a scenario names the kind: a fresh process creates the
classes a scenario uses only (issue 28). The unions and their registries, tag -> "module:Class"
here, are in `aqmlab.queues`, `aqmlab.congestion`, `aqmlab.topology` and `aqmlab.traffic`,
which give each class under its old name too (`from aqmlab.queues import Red`)."""
