# Install CV RAG Desktop on Windows from this folder with no network: a virtualenv, the pinned
# wheels (requirements.lock, every hash checked) and a Start-menu shortcut.
#
#   powershell -ExecutionPolicy Bypass -File install.ps1 [-Prefix DIR] [-Python py] [-NoShortcut]
#
# The wheelhouse must have been built on Windows (`make wheelhouse` there, or
# `python packaging\wheelhouse.py`): wheels with native code (PySide6, onnxruntime, PyMuPDF,
# qdrant-edge-py, opencv) are per platform. NOT TESTED on Windows here (see docs/packaging.md).
param(
    [string]$Prefix = "$env:LOCALAPPDATA\cvrag-desktop",
    [string]$Python = "py",
    [switch]$NoShortcut
)
$ErrorActionPreference = "Stop"
$Here = Split-Path -Parent $MyInvocation.MyCommand.Path
$Venv = Join-Path $Prefix "venv"
Write-Host "Installing CV RAG Desktop into $Venv (offline, from $Here)"
if ($Python -eq "py") { & py -3.11 -m venv $Venv } else { & $Python -m venv $Venv }
if ($LASTEXITCODE -ne 0) { throw "Could not create a virtualenv: install Python 3.11 from python.org (with the py launcher)." }
$env:PIP_CONFIG_FILE = "NUL"; $env:PIP_NO_INDEX = "1"; $env:PIP_FIND_LINKS = ""; $env:PIP_INDEX_URL = ""
& "$Venv\Scripts\python.exe" -m pip install --quiet --no-index --find-links $Here --require-hashes `
    --disable-pip-version-check -r (Join-Path $Here "requirements.lock")
if ($LASTEXITCODE -ne 0) { throw "pip could not install the wheels (built for another platform or Python?)." }
if (-not $NoShortcut) {
    $Programs = [Environment]::GetFolderPath("Programs")
    $Shell = New-Object -ComObject WScript.Shell
    $Link = $Shell.CreateShortcut((Join-Path $Programs "CV RAG Desktop.lnk"))
    $Link.TargetPath = "$Venv\Scripts\cvrag-desktop.exe"
    $Link.WorkingDirectory = $Prefix
    $Link.Description = "Offline CV search, screening and shortlists"
    $Link.Save()
    Write-Host "Start-menu shortcut: $Programs\CV RAG Desktop.lnk"
}
Write-Host "Installed. Check it with: $Venv\Scripts\cvrag.exe doctor   and   $Venv\Scripts\cvrag-desktop.exe --self-test"
