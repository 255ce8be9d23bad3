"""The self-test of a build (``cvrag-desktop --self-test``) passes from the source tree, every step named.

CI runs it again on the frozen build (``tests/e2e/test_bundle.py``); running it here as well means a
moved module or a broken step shows up in ``make test``, not only after a 10-minute package build.
"""

from __future__ import annotations

import os
import subprocess
import sys

STEPS = ("models", "trained model", "ocr", "samples", "ingest", "search", "question", "export csv", "job match",
         "access export", "window", "llm stack")


def test_the_self_test_passes_every_step_offline(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("CVRAG_")}
    env.update(HOME=str(tmp_path), TMPDIR=str(tmp_path), QT_QPA_PLATFORM="offscreen")
    run = subprocess.run([sys.executable, "-c", "import sys; sys.argv[1:] = ['--self-test']; "
                          "from cvrag_desktop.app_entry import main; raise SystemExit(main())"],
                         capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    passed = [line.split()[1:3] for line in run.stdout.splitlines() if line.startswith("[ok]")]
    names = [" ".join(p) if " ".join(p) in STEPS else p[0] for p in passed]
    assert names == list(STEPS), run.stdout
    assert "Traceback" not in run.stdout + run.stderr
