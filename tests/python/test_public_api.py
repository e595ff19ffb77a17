"""Each module of the package says what its public API is: ``__all__``
lists exactly the names it defines for users (no module such as ``np``,
``os`` or ``json``, no name of ``typing``), ``dir()`` shows no more, and
the type stub of the Rust extension lists what the extension exports."""

import ast
import importlib
import types
import typing
from pathlib import Path

import pytest

import swftool

PACKAGE = Path(swftool.__file__).parent
MODULES = ["swftool", "swftool.errors", "swftool.policy", "swftool.gym"]
# The package's own submodules, part of its public API.
SUBMODULES = {"errors", "policy", "gym"}


def _module(name: str) -> types.ModuleType:
    if name == "swftool.gym":
        pytest.importorskip("gymnasium")
    return importlib.import_module(name)


def _defined_here(module: types.ModuleType) -> set:
    """Public names the module's own source assigns, defines or imports
    for users: every top-level name not starting with `_`, but the ones it
    imports (modules, typing names, other modules' objects)."""
    tree = ast.parse(Path(module.__file__).read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if not n.startswith("_")}


@pytest.mark.parametrize("name", MODULES)
def test_all_lists_exactly_the_public_api(name):
    module = _module(name)
    exported = module.__all__
    assert len(set(exported)) == len(exported), f"{name}: a name twice in __all__"
    for n in exported:
        assert hasattr(module, n), f"{name}.__all__ names {n}, which it does not have"
        value = getattr(module, n)
        if isinstance(value, types.ModuleType):
            assert value.__name__ == f"swftool.{n}", f"{name}.__all__ exports the module {n}"
        assert n not in dir(typing), f"{name}.__all__ exports typing's {n}"
    for banned in ["np", "pl", "os", "json", "io", "shutil", "tempfile", "Any", "Path", "dataclass"]:
        assert banned not in exported, f"{name}.__all__ exports {banned}"
        assert banned not in dir(module), f"dir({name}) shows {banned}"
    missing = _defined_here(module) - set(exported)
    assert not missing, f"{name} defines {sorted(missing)} without listing them in __all__"
    # What the package re-exports is the package's own.
    for n in exported:
        owner = getattr(getattr(module, n), "__module__", None)
        if owner is not None and not isinstance(getattr(module, n), types.ModuleType):
            assert owner.startswith("swftool") or owner == "typing", f"{name}.{n} comes from {owner}"


def test_the_package_lists_its_submodules_and_no_module_of_its_imports():
    modules = {n for n in swftool.__all__ if isinstance(getattr(swftool, n), types.ModuleType)}
    assert modules <= SUBMODULES
    shown = set(dir(swftool))
    assert set(swftool.__all__) <= shown and "__version__" in shown
    assert not {"np", "os", "json"} & shown


def test_the_stub_lists_what_the_extension_exports():
    stub = ast.parse((PACKAGE / "_swftool.pyi").read_text())
    listed = next(
        ast.literal_eval(node.value)
        for node in stub.body
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets)
    )
    declared = set()
    for node in stub.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            declared.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            declared.add(node.target.id)
    assert sorted(listed) == sorted(swftool._swftool.__all__)
    assert set(listed) == declared
