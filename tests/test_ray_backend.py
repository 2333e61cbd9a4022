"""`simulate --backend ray` gives exactly the local results (runs where the `ray` extra is installed)."""
import json

import pytest
from click.testing import CliRunner

ray = pytest.importorskip("ray")

from interpreter.cli.commands import cli  # noqa: E402
from interpreter.lab.runner import use_backend  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             ignore_reinit_error=True)
    yield
    ray.shutdown()
    use_backend("local")


def _run(*extra):
    res = CliRunner().invoke(cli, ["simulate", "games/stun.yaml", "-p", "3", "-g", "120", "--seed", "9", "--json",
                                   *extra])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    for k in ("seconds", "games_per_second", "backend", "workers"):
        d.pop(k)
    return d


def test_ray_results_equal_local(local_ray):
    local = _run()
    on_ray = _run("--backend", "ray")
    use_backend("local")
    assert on_ray == local


def test_ray_workers_are_tasks_in_flight_and_change_nothing(local_ray):
    local = _run()
    on_ray = _run("--backend", "ray", "--workers", "2")
    use_backend("local")
    assert on_ray == local


def test_tune_on_ray_gives_the_local_answer(local_ray):
    def tuned(*extra):
        res = CliRunner().invoke(cli, ["tune", "tests/specs/tune_planted.yaml", "-p", "2", "--vary", "line",
                                       "--target", "win P1 40%..60%", "--json", *extra])
        assert res.exit_code == 0, res.output
        return json.loads(res.stdout)["candidates"]
    local = tuned()
    on_ray = tuned("--backend", "ray", "--workers", "2")
    use_backend("local")
    assert on_ray == local and [c["label"] for c in local if c["meets"] is True] == ["line=50"]
