"""The regression gate: a tiny git repository, a runner that reads a number from each tree, never real data."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cvrag_desktop.evaluation import gate


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def _commit(repo: Path, score: float, message: str) -> None:
    (repo / "score.json").write_text(json.dumps({"score": score}), encoding="utf-8")
    _git(repo, "add", "score.json")
    _git(repo, "-c", "user.name=Gate Test", "-c", "user.email=gate@example.invalid", "commit", "-qm", message)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with two commits: the score 0.9, then 0.8."""
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q")
    _commit(root, 0.9, "first")
    _commit(root, 0.8, "second")
    return root


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A data folder with one labelled real folder (labels only: the runner never reads it)."""
    folder = tmp_path / "data" / "real-cvs"
    folder.mkdir(parents=True)
    (folder / "labels.json").write_text("[]", encoding="utf-8")
    return folder.parent


def _zoo(tmp_path: Path) -> Path:
    zoo = tmp_path / "zoo"
    zoo.mkdir()
    (zoo / "manifest.json").write_text("{}", encoding="utf-8")
    return zoo


def fake_runner(seen: list[Path]):
    """A runner answering like ``cvrag eval --json`` with the tree's score.json as every number."""
    def run(tree: Path, args: list[str]) -> dict:
        seen.append(tree)
        s = json.loads((tree / "score.json").read_text(encoding="utf-8"))["score"]
        if args[0] == "--dataset":
            return {"rates": {"name": 1.0, "employers": s}, "fields": {"employers": {"precision": s}}}
        block = {"title": {"precision": s, "recall": s}}
        return {"overall": block, "overall_held_out": block if "--include-held-out" in args else None,
                "unmarked": {"right": 9, "values": 10}}
    return run


def _args(*argv: str):
    return gate.parser().parse_args(list(argv))


def _run(repo: Path, argv: list[str], runner) -> tuple[int, str]:
    lines: list[str] = []
    code = gate.run_gate(_args(*argv), runner=runner, repo=repo, out=lines.append)
    return code, "\n".join(lines)


def _worktrees(repo: Path) -> int:
    return _git(repo, "worktree", "list").count("\n")


def test_the_same_ref_is_kept_with_every_delta_zero(repo: Path, data: Path, tmp_path: Path) -> None:
    seen: list[Path] = []
    code, text = _run(repo, ["--base", "HEAD", "--data", str(data), "--zoo", str(_zoo(tmp_path))], fake_runner(seen))
    assert code == 0
    assert "DROP" not in text and "kept" in text
    assert "real-cvs" in text and "employers P" in text and "zoo (open)" in text and "title R" in text
    assert text.count("+0.0000") >= 5
    assert seen[0] != repo and seen[-1] == repo  # the base first, in a worktree of its own
    assert not seen[0].exists() and _worktrees(repo) == 1


def test_a_drop_on_a_real_folder_fails_the_gate(repo: Path, data: Path) -> None:
    code, text = _run(repo, ["--base", "HEAD~1", "--data", str(data)], fake_runner([]))
    assert code == 1
    row = next(ln for ln in text.splitlines() if ln.startswith("real-cvs") and " employers " in ln)
    assert "0.9000" in row and "0.8000" in row and "-0.1000" in row and "DROP" in row
    assert "NOT KEPT" in text


def test_a_tolerance_absorbs_a_small_drop(repo: Path, data: Path) -> None:
    code, _ = _run(repo, ["--base", "HEAD~1", "--data", str(data), "--tolerance", "0.15"], fake_runner([]))
    assert code == 0


def test_the_zoo_overall_dropping_fails_but_the_held_out_block_is_only_printed(repo: Path, tmp_path: Path) -> None:
    zoo = _zoo(tmp_path)
    code, text = _run(repo, ["--base", "HEAD~1", "--data", str(tmp_path / "none"), "--zoo", str(zoo),
                             "--include-held-out"], fake_runner([]))
    assert code == 1
    held = [ln for ln in text.splitlines() if ln.startswith("zoo (held-out)")]
    assert held and all("not gated" in ln and "DROP" not in ln for ln in held)
    assert any(ln.startswith("zoo (open)") and "DROP" in ln for ln in text.splitlines())
    assert "skipped real-cvs" in text


def test_an_improvement_is_kept(repo: Path, data: Path) -> None:
    _commit(repo, 0.95, "better")
    code, text = _run(repo, ["--base", "HEAD~1", "--data", str(data)], fake_runner([]))
    assert code == 0 and "+0.1500" in text


def test_the_worktree_is_removed_when_the_run_is_interrupted(repo: Path, data: Path) -> None:
    trees: list[Path] = []

    def interrupted(tree: Path, args: list[str]) -> dict:
        trees.append(tree)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _run(repo, ["--base", "HEAD", "--data", str(data)], interrupted)
    assert trees and not trees[0].exists() and not trees[0].parent.exists()
    assert _worktrees(repo) == 1


def test_a_failed_evaluation_of_this_tree_fails_the_gate_and_of_the_base_is_reported(repo: Path, data: Path) -> None:
    def broken_after(tree: Path, args: list[str]) -> dict:
        if tree == repo:
            raise gate.GateError("boom")
        return fake_runner([])(tree, args)

    code, text = _run(repo, ["--base", "HEAD", "--data", str(data)], broken_after)
    assert code == 1 and "FAILED after real-cvs: boom" in text

    def broken_before(tree: Path, args: list[str]) -> dict:
        if tree != repo:
            raise gate.GateError("old")
        return fake_runner([])(tree, args)

    code, text = _run(repo, ["--base", "HEAD", "--data", str(data)], broken_before)
    assert code == 0 and "FAILED before real-cvs: old" in text


def test_usage_errors_exit_2_with_a_message(repo: Path, data: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(gate, "REPO", repo)
    assert gate.main(["--base", "nope", "--data", str(data)]) == 2
    err = capsys.readouterr().err
    assert "error: --base 'nope' names no commit" in err and "Traceback" not in err
    with pytest.raises(gate.GateError, match="names no commit"):
        gate.resolve_ref(repo, "no-such-branch")
    with pytest.raises(gate.GateError, match="not a git repository"):
        gate.resolve_ref(data, "HEAD")
    with pytest.raises(gate.GateError, match="--workers"):
        gate.run_gate(_args("--base", "HEAD", "--workers", "0"), runner=fake_runner([]), repo=repo)
    with pytest.raises(SystemExit) as exc:
        gate.main([])  # argparse: --base is required
    assert exc.value.code == 2


def test_nothing_to_evaluate_is_reported(repo: Path, tmp_path: Path) -> None:
    code, text = _run(repo, ["--base", "HEAD", "--data", str(tmp_path / "none"), "--zoo", str(tmp_path / "nozoo")],
                      fake_runner([]))
    assert code == 0 and "not a built zoo" in text and "nothing to evaluate" in text


def test_numbers_are_read_from_the_eval_json() -> None:
    real = gate.real_numbers({"rates": {"name": 1.0, "years": 0.5},
                              "fields": {"name": {"precision": 0.9}}})
    assert real == {"name": 1.0, "years": 0.5, "name P": 0.9}
    zoo = gate.zoo_numbers({"overall": {"degrees": {"precision": 1.0, "recall": None}},
                            "unmarked": {"right": 3, "values": 4}}, "overall")
    assert zoo == {"degrees P": 1.0, "degrees R": None, "unmarked right": 0.75}
    assert gate.zoo_numbers({"overall_held_out": None}, "overall_held_out") == {}
