"""String tensors and the openvino-tokenizers op set, as ``read_model`` infers them.

OpenVINO (opset15) holds a string tensor as one ``string`` tensor; openvino-tokenizers works on its decomposed
form: begins and ends (i32, the tensor's shape) and the bytes of every string concatenated (u8, ``[?]``), and a
ragged tensor adds per-row begins and ends over the elements. The shape functions follow each op's
``validate_and_infer_types`` in openvino_tokenizers' ``src/*.cpp`` (2026.4.1.0) and its helpers in
``utils.cpp``: ``set_string_output`` (``[s, s, [?]]``), ``set_ragged_string_output`` (``[s, s, [?], [?], [?]]``),
``set_ragged_output`` (``[s, s, [?]]``). ``read_model`` reads the tokenizer ops once the extension is loaded
(``import openvino_tokenizers``); without it, it refuses the file, so an IR holding them is taken as one the
extension reads (their version is ``extension``).

Type rules give the outputs' types as those helpers set them (i32 begins and ends, u8 bytes, a boolean skip
mask); the inputs' types are not checked.
"""

from __future__ import annotations

from ...core import etypes as E
from ...core.dims import Dim, Shape
from ..dimops import broadcast_merge_into, merge_into, shapes_compatible
from ..node import Node, ShapeError, Undecided, shape_infer, type_infer
from ..typerule import attr_type, in_type, merged_types

_ANY = [Dim.dynamic()]  # PartialShape{Dimension()}: one dim of any length


def _string(shape: Shape) -> list[Shape]:
    """``set_string_output``: begins and ends of ``shape``, the bytes ``[?]``."""
    return [shape, shape, list(_ANY)]


def _ragged_string(shape: Shape) -> list[Shape]:
    """``set_ragged_string_output``: row begins and ends of ``shape``, then string begins, ends and bytes."""
    return [shape, shape, list(_ANY), list(_ANY), list(_ANY)]


def _ragged(shape: Shape) -> list[Shape]:
    """``set_ragged_output``: row begins and ends of ``shape``, the elements ``[?]``."""
    return [shape, shape, list(_ANY)]


def _need(node: Node, *counts: int) -> int:
    n = len(node.inputs)
    if n not in counts:
        raise ShapeError(f"{node.type}: supported input sizes are {' or '.join(map(str, counts))}, got {n}")
    return n


def _string_scalar(node: Node, i: int) -> None:
    """``check_string_scalar_input``: a pattern, a u8 1-D tensor."""
    rank = node.rank(i)
    if rank is not None and rank != 1:
        raise ShapeError(f"u8/1D tensor is expected, got rank {rank} on input {i}")


def _ragged_last(node: Node, i: int) -> None:
    """``check_ragged_input``: the elements of a ragged tensor are 1-D."""
    rank = node.rank(i + 2)
    if rank is not None and rank != 1:
        raise ShapeError("The last tensor in ragged tensor representation should be a 1D tensor")


# -- opset15 core ops ------------------------------------------------------------------------------------
@shape_infer("StringTensorUnpack")
def _string_tensor_unpack(node: Node) -> list[Shape]:
    """StringTensorUnpack-15: begins and ends of the input's shape, the bytes ``[?]``. openvino-tokenizers' own
    (``extension``) also takes the legacy packed form, a u8 1-D tensor of ``[?]`` strings, and a dynamic type
    gives a dynamic rank: the element type its producer declares (a Const's, a Parameter's) tells which."""
    if len(node.inputs) != 1:
        raise ShapeError("Number of inputs for StringTensorUnpack is not equal to 1")
    shape = node.input(0)
    if node.version is None:
        src = node.source(0)
        et = src[1].get("element_type") if src is not None and src[0] in ("const", "parameter") else None
        if et is None:
            raise Undecided("the legacy StringTensorUnpack's output depends on its input's element type")
        if et == "u8":
            if shape is not None and len(shape) != 1:
                raise ShapeError("StringTensorUnpack expects a string tensor or a u8 tensor with rank 1")
            shape = list(_ANY)
        elif et == "dynamic":
            shape = None
        elif et != "string":
            raise ShapeError(f"StringTensorUnpack expects a tensor with string or u8 elements, got {et}")
    return _string(shape)


# openvino_tokenizers' utils.cpp: a decomposed string tensor is (begins i32, ends i32, chars u8); a ragged one
# (ragged begins i32, ragged ends i32, begins i32, ends i32, chars u8); an op with a skip mask adds a boolean
_STRINGS = ["i32", "i32", "u8"]
_RAGGED_STRINGS = ["i32", "i32", "i32", "i32", "u8"]


@type_infer("StringTensorUnpack")
def _string_unpack_types(node: Node) -> list[str | None]:
    """Either op: openvino-tokenizers' own (``version="extension"``) also unpacks a u8 blob of packed strings."""
    return list(_STRINGS)


@type_infer("StringTensorUnpack", versions=(15,))
def _string_unpack_15_types(node: Node) -> list[str | None]:
    t = in_type(node, 0)
    if t is not None and t != "string":
        raise ShapeError(f"StringTensorUnpack expects a tensor with string elements. Got: {t}")
    return list(_STRINGS)


@shape_infer("StringTensorPack")
def _string_tensor_pack(node: Node) -> list[Shape]:
    """StringTensorPack-15: the shape of the begins, merged with the ends'."""
    if len(node.inputs) != 3:
        raise ShapeError("StringTensorPack takes 3 inputs")
    ok, shape = merge_into(node.input(0), node.input(1))
    if not ok:
        raise ShapeError("The shapes of begins and ends have to be compatible.")
    symbols = node.input(2)
    if symbols is not None and len(symbols) != 1:
        raise ShapeError("Symbols input must be 1D.")
    return [shape]


@type_infer("StringTensorPack")
def _string_pack_types(node: Node) -> list[str | None]:
    return ["string"]


@type_infer("StringTensorPack", versions=(15,))
def _string_pack_15_types(node: Node) -> list[str | None]:
    begins, ends, symbols = (in_type(node, i) for i in range(3))
    if begins is not None and ends is not None and (begins != ends or begins not in ("i32", "i64")):
        raise ShapeError("The element types of the begins and ends input tensors must match and be of i32 or i64 "
                         f"type. Got: {begins} and {ends}")
    if symbols is not None and symbols != "u8":
        raise ShapeError(f"StringTensorPack expects a tensor with ov::element::u8 elements. Got: {symbols}")
    return ["string"]


# -- normalizers: strings in, strings out (a 4th input, the skips, passes through) -------------------------
@shape_infer("CaseFold", "NormalizeUnicode", "UTF8Validate", "ByteFallback")
def _normalize(node: Node) -> list[Shape]:
    out = _string(node.input(0))
    if node.type in ("CaseFold", "NormalizeUnicode"):
        if _need(node, 3, 4) == 4:
            out.append(node.input(3))
    return out


@shape_infer("RegexNormalization")
def _regex_normalization(node: Node) -> list[Shape]:
    n = _need(node, 5, 6)
    _string_scalar(node, 3 + (n == 6))
    _string_scalar(node, 4 + (n == 6))
    out = _string(node.input(0))
    return out + [node.input(3)] if n == 6 else out


@shape_infer("CharsMapNormalization")
def _chars_map_normalization(node: Node) -> list[Shape]:
    spec = node.attr("normalization_form", "") == ""
    skips = _need(node, 4, 5) == 5 if spec else _need(node, 3, 4) == 4
    out = _string(node.input(0))
    return out + [node.input(3)] if skips else out


@type_infer("CaseFold", "NormalizeUnicode", "UTF8Validate", "RegexNormalization", "CharsMapNormalization")
def _string_out_types(node: Node) -> list[str | None]:
    """``set_string_output``, then the skip mask where the op has one."""
    return (_STRINGS + [E.BOOLEAN] * node.n_outputs)[:node.n_outputs]


# -- splitters: ragged strings in, ragged strings out -------------------------------------------------------
@shape_infer("RegexSplit")
def _regex_split(node: Node) -> list[Shape]:
    n = _need(node, 6, 7, 9)
    skips = n == 7
    _string_scalar(node, 5 + skips)
    if node.lower("behaviour", "remove") not in ("remove", "isolate", "contiguous", "mergedwithprevious",
                                                  "mergedwithnext"):
        raise ShapeError(f"RegexSplit doesn't support unknown split mode: {node.attr('behaviour')}")
    max_splits = node.int("max_splits", -1)
    if max_splits != -1 and max_splits <= 0:
        raise ShapeError(f"RegexSplit max_splits attribute must be greater then `0` or equal to `-1`, got {max_splits}")
    out = _ragged_string(node.input(0))
    return out + [node.input(5)] if skips else out


@shape_infer("SpecialTokensSplit")
def _special_tokens_split(node: Node) -> list[Shape]:
    skips = _need(node, 6, 7) == 7
    _string_scalar(node, 5 + skips)
    return _ragged_string(node.input(0)) + [node.input(5) if skips else node.input(2)]


@shape_infer("BytesToChars")
def _bytes_to_chars(node: Node) -> list[Shape]:
    return _ragged_string(node.input(0))


@shape_infer("CharsToBytes")
def _chars_to_bytes(node: Node) -> list[Shape]:
    return _string(node.input(0))


# -- tokenizers: ragged strings in, ragged ids out --------------------------------------------------------
@shape_infer("WordpieceTokenizer")
def _wordpiece(node: Node) -> list[Shape]:
    return _ragged(node.input(0))


@shape_infer("BPETokenizer")
def _bpe(node: Node) -> list[Shape]:
    _need(node, 11, 14, 15, 18)
    return _ragged(node.input(0))


@shape_infer("UnigramTokenizer")
def _unigram(node: Node) -> list[Shape]:
    """``UnigramTokenizer::validate_and_infer_types``: a ragged string input (0-4), the vocabulary as a string
    tensor (5-7) and the scores (8); ragged ids shaped as input 0."""
    if len(node.inputs) < 9:
        raise Undecided(f"UnigramTokenizer with {len(node.inputs)} inputs (it reads 9)")
    return _ragged(node.input(0))


@type_infer("BPETokenizer", "WordpieceTokenizer", "UnigramTokenizer")
def _token_ids_types(node: Node) -> list[str | None]:
    """``set_ragged_output(..., element::i32)``: ragged begins, ends and the token ids."""
    return ["i32"] * node.n_outputs


@shape_infer("VocabEncoder")
def _vocab_encoder(node: Node) -> list[Shape]:
    return [node.input(0)]


# -- ragged tensors ---------------------------------------------------------------------------------------
@shape_infer("CombineSegments")
def _combine_segments(node: Node) -> list[Shape]:
    """Ragged tensors (3 inputs each) and the segment ids: every non-scalar row shape merged into one."""
    n = len(node.inputs)
    if n == 0 or (n - 1) % 3:
        raise ShapeError(f"CombineSegments takes 3 inputs per ragged tensor and the ids, got {n}")
    shape: Shape = None
    for i in range(0, n - 1, 3):
        _ragged_last(node, i)
        rows = node.input(i)
        if rows is not None and len(rows) > 0:
            ok, shape = merge_into(shape, rows)
            if not ok:
                raise ShapeError("CombineSegments: the ragged tensors' row shapes are not compatible")
    return _ragged(shape) + _ragged(shape)


@type_infer("CombineSegments")
def _combine_segments_types(node: Node) -> list[str | None]:
    """``set_ragged_output`` twice: i32 begins and ends, then as elements the merge of every ragged input's begins
    and ends types (not its elements'), and the ids' type. Where those do not merge ``read_model`` refuses the
    layer; irreshape does not claim the type."""
    n = len(node.types)
    et: str | None | bool = E.DYNAMIC
    for i in range(0, n - 1, 3):
        for t in (in_type(node, i), in_type(node, i + 1)):
            et = None if et is None or t is None else E.merge(et, t)
    return ["i32", "i32", et if et is not False else None, "i32", "i32", in_type(node, n - 1) if n else None
            ][:node.n_outputs]


@shape_infer("Truncate")
def _truncate(node: Node) -> list[Shape]:
    """One or two ragged tensors, each passed through, then the max length (an i32 scalar) and the modes.
    Where the inputs cannot tell where the ragged tensors end (element types), irreshape cannot tell."""
    n = len(node.inputs)
    count = 2 if n >= 8 and node.rank(6) == 0 and node.rank(3) != 0 else 1
    if count == 1 and node.rank(3) != 0:
        raise Undecided("where Truncate's ragged inputs end depends on their element types")
    out: list[Shape] = []
    for i in range(count):
        _ragged_last(node, 3 * i)
        out += [node.input(3 * i), node.input(3 * i + 1), node.input(3 * i + 2)]
    return out


@type_infer("Truncate")
def _truncate_types(node: Node) -> list[str | None]:
    """``set_ragged_output`` per ragged input: i32 begins and ends, and as elements its begins' type."""
    return [t for i in range(node.n_outputs // 3) for t in ("i32", "i32", in_type(node, 3 * i))]


@shape_infer("RaggedToDense")
def _ragged_to_dense(node: Node) -> list[Shape]:
    """The rows' shape and the target length: a Const's first value (``Dimension(v)``), ``?`` for anything
    computed (OpenVINO reads the producer node, not a folded value)."""
    _need(node, 5)
    _ragged_last(node, 0)
    target = node.input(3)
    if target is not None and not (len(target) == 0 or (len(target) == 1 and target[0].contains(1))):
        raise ShapeError("Target dense dimension size for RaggedToDense should be a 0D or 1D tensor with a single "
                         "element")
    rank = node.rank(4)
    if rank is not None and rank != 0:
        raise ShapeError("RaggedToDense's default value must be a scalar")
    rows = node.input(0)
    if rows is None:
        return [None, None]
    length = Dim.dynamic()
    if node.from_const(3):
        value = node.const(3)
        if not value:
            raise Undecided("the target length Const holds no value irreshape reads")
        length = Dim.of(value[0]) if value[0] >= -1 else Dim.dynamic()
    return [list(rows) + [length], list(rows) + [length]]


@type_infer("RaggedToDense")
def _ragged_to_dense_types(node: Node) -> list[str | None]:
    return [in_type(node, 2), E.BOOLEAN][:node.n_outputs]


@shape_infer("RaggedToRagged")
def _ragged_to_ragged(node: Node) -> list[Shape]:
    _need(node, 2)
    return [list(_ANY), list(_ANY)]


@type_infer("ByteFallback", "BytesToChars", "CharsToBytes", "VocabEncoder", "RaggedToRagged")
def _string_ops_types(node: Node) -> list[str | None]:
    """Ragged and string tensors whose type rules irreshape does not reproduce: their outputs' types are not
    claimed."""
    return [None] * node.n_outputs


@shape_infer("FuzeRagged")
def _fuze_ragged(node: Node) -> list[Shape]:
    return [node.input(0), node.input(0)]


@type_infer("FuzeRagged")
def _fuze_ragged_types(node: Node) -> list[str | None]:
    return [in_type(node, 0), in_type(node, 1)][:node.n_outputs]


# -- detokenizers -----------------------------------------------------------------------------------------
@shape_infer("VocabDecoder")
def _vocab_decoder(node: Node) -> list[Shape]:
    """Token ids ``[batch, seq]`` (and the vocabulary) in, ragged strings of ``[batch]`` out."""
    ids = node.input(0)
    if ids is None or len(ids) == 0:
        raise Undecided("VocabDecoder reads its ids' first dim")
    return _ragged_string([ids[0]])


@type_infer("RegexSplit", "SpecialTokensSplit", "VocabDecoder")
def _ragged_string_out_types(node: Node) -> list[str | None]:
    """``set_ragged_string_output``, then the skip mask where the op has one."""
    return (_RAGGED_STRINGS + [E.BOOLEAN] * node.n_outputs)[:node.n_outputs]


# -- FakeConvert (opset13: f8 quantization) ----------------------------------------------------------------
@shape_infer("FakeConvert")
def _fake_convert(node: Node) -> list[Shape]:
    """FakeConvert-13: its data input's shape; the scale broadcasts into it (numpy), the shift is compatible with
    the scale (measured on 2026.4.1). Where the broadcast would change a dim of the data, irreshape cannot tell."""
    if len(node.inputs) not in (2, 3):
        raise ShapeError("FakeConvert takes 2 or 3 inputs")
    data, scale = node.input(0), node.input(1)
    ok, merged = broadcast_merge_into(data, scale)
    if not ok or (data is not None and merged is not None and len(merged) != len(data)):
        raise ShapeError("Argument shapes are inconsistent.")
    if len(node.inputs) == 3 and not shapes_compatible(scale, node.input(2)):
        raise ShapeError("FakeConvert scale shape is not compatible with shift shape.")
    if data is not None and merged != data:
        raise Undecided("the scale would refine a dim of FakeConvert's data")
    return [data]


@type_infer("FakeConvert")
def _fake_convert_types(node: Node) -> list[str | None]:
    """v13: destination_type f8e4m3 or f8e5m2; data, scale and shift of one type, bf16, f16 or f32."""
    dest = attr_type(node, "destination_type", "f8e4m3")
    if dest not in ("f8e4m3", "f8e5m2"):
        raise ShapeError(f"Bad format for f8 conversion type: {dest}")
    out = merged_types(node, tuple(range(len(node.types))), "Mixed input types are not supported.")[0]
    if out is not None and out not in ("bf16", "f16", "f32", E.DYNAMIC):
        raise ShapeError(f"The element type of the input tensor must be a bf16, f16, f32 but got: {out}")
    return [out]
