"""The claims as data (python/aqmlab/reproduce/claims/seedNNN.toml): every declaration's claims
come from its paper's file, and a bad file is refused with an error naming the field."""

import pytest
from aqmlab.reproduce import REGISTRY
from aqmlab.reproduce.claims import CLAIMS_DIR, ClaimFileError, paper_claims, parse_claims
from aqmlab.reproduce.declare import AtLeast, Near

GOOD = """
[[claim]]
reproduction = "seed009-fig1"
id = "full"
statement = "the link is used"
paper = "100 %"
where = "Fig. 1"
checks = [{ quantity = "u", criterion = "near", value = 100.0, tolerance = 0.5, label = "mean", unit = "%" }]
shows = [{ quantity = "m", label = "smallest" }]

[[claim]]
reproduction = "seed009-fig1"
id = "sum"
kind = "consistency"
statement = "a sum"
paper = "x"
where = "eq. 1"
checks = [{ quantity = "d", criterion = "at_least", bound = 0 }]
"""


def test_a_claim_file_reads_into_claims():
    claims = parse_claims(GOOD, "good.toml")["seed009-fig1"]
    assert [c.id for c in claims] == ["full", "sum"]
    assert claims[0].checks[0].criterion == Near(100.0, 0.5) and claims[0].shows == (("m", "smallest", ""),)
    assert claims[1].kind == "consistency" and claims[1].checks[0].criterion == AtLeast(0.0)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (('criterion = "at_least"', 'criterion = "atleast"'), "criterion = 'atleast'; allowed: near, between"),
        (("bound = 0", 'bound = "0"'), "bound = '0'; allowed: a number"),
        (('kind = "consistency"', 'kind = "identity"'), "kind = 'identity'; allowed: claim, consistency, ours"),
        (('statement = "a sum"', 'statment = "a sum"'), "unknown fields ['statment']"),
        (('paper = "x"', 'paper = ""'), "paper = ''; allowed: a non-empty string"),
        (("tolerance = 0.5, ", ""), "tolerance = None; allowed: a number"),
    ],
)
def test_a_bad_claim_file_names_the_claim_and_the_field(edit, message):
    with pytest.raises(ClaimFileError, match="bad.toml, claim") as error:
        parse_claims(GOOD.replace(*edit), "bad.toml")
    assert message in str(error.value)


def test_every_declaration_takes_its_claims_from_its_papers_file():
    files = sorted(path.stem for path in CLAIMS_DIR.glob("*.toml"))
    assert files == ["seed000", "seed001", "seed002", "seed003", "seed004"]
    declared = {rid: d.claims for rid, d in REGISTRY.items()}
    in_files = {rid: claims for paper in files for rid, claims in paper_claims(paper).items()}
    assert in_files == declared
