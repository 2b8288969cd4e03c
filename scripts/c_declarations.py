"""The C side of the Fortran interfaces: the function declarations and enum constants of C
headers, and the shape of a C parameter (scripts/gen-fortran-interfaces.py generates the Fortran
module's interfaces from them; scripts/check-fortran-interfaces.py checks interfaces against them).
A parameter marked ARMADA_OPTIONAL (armada/arrays/c_api.h) may be NULL."""
import pathlib
import re

C_DECLARATION = re.compile(r"(?P<result>[\w\s*]+?)\b(?P<name>\w+)\s*\((?P<params>[^()]*)\)\s*[;{]")
ENUMERATOR = re.compile(r"\b(?P<name>[A-Z][A-Z0-9_]+)\s*=\s*(?P<value>-?\d+)")


def strip(text):
    """The text without comments and preprocessor lines."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.DOTALL)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r"^\s*#[^\n]*", " ", text, flags=re.MULTILINE)


def c_declarations(paths):
    """name -> (result, [parameter declarations]) of every C function declared or defined, in
    the order of the files."""
    found = {}
    for path in paths:
        text = strip(pathlib.Path(path).read_text())
        text = re.sub(r"\b(extern|ARMADA_\w+_API|static|inline)\b", " ", text)
        for m in C_DECLARATION.finditer(text):
            result = " ".join(m["result"].split())
            if not result or result.split()[-1] in ("return", "else", "if", "while", "for", "switch", "sizeof"):
                continue
            params = [" ".join(p.split()) for p in m["params"].split(",")]
            params = [] if params in (["void"], [""]) else params
            found.setdefault(m["name"], (result, params))
    return found


def enum_constants(paths):
    """[(name, value)] of the enumerators with explicit values, in order."""
    out = []
    for path in paths:
        for block in re.findall(r"\benum\s*\w*\s*\{(.*?)\}", strip(pathlib.Path(path).read_text()), re.DOTALL):
            out += [(m["name"], int(m["value"])) for m in ENUMERATOR.finditer(block)]
    return out


def c_shape(declaration):
    """(base type, pointer depth, const at the pointee, optional, array, name) of a C parameter
    (or of a result followed by a dummy name). `T x[]` is a pointer that is an array."""
    optional = "ARMADA_OPTIONAL" in declaration
    declaration = declaration.replace("ARMADA_OPTIONAL", " ")
    array = re.search(r"\[\s*\w*\s*\]", declaration) is not None
    decl = re.sub(r"\[\s*\w*\s*\]", "*", declaration)
    if "(*" in decl:
        name = re.search(r"\(\*\s*(\w+)", decl)
        return ("function", 1, False, optional, False, name[1] if name else "")
    words = decl.replace("*", " * ").split()
    depth = words.count("*")
    segments = " ".join(words).split("*")  # const before the last '*': the pointee is const
    const = "const" in segments[depth - 1].split() if depth else "const" in words
    base = [w for w in words if w not in ("const", "*", "restrict", "struct") and not w.startswith("__")]
    name = base[-1] if len(base) > 1 else ""
    if len(base) > 1:
        base = base[:-1]  # the parameter's name
    return (" ".join(base), depth, const, optional, array, name)
