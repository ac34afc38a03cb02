#!/usr/bin/env python3
"""Export small random-weight models from OpenVINO's other frontends, as openvino 2026.4.1 converts them, and label
every output port with ``read_model``'s partial shape and element type (issue 37).

Each framework runs in a venv of its own outside the repository; each venv also holds openvino==2026.4.1 (and
openvino-tokenizers==2026.4.1.0 where its ops are read). One part per venv:

    python -m venv /work/venvs/tf      && /work/venvs/tf/bin/pip install tensorflow-cpu==2.21.0 tf2onnx tflite \\
                                              scipy openvino==2026.4.1 openvino-tokenizers==2026.4.1.0
    python -m venv /work/venvs/paddle  && /work/venvs/paddle/bin/pip install paddlepaddle==3.3.1 openvino==2026.4.1
    python -m venv /work/venvs/jax     && /work/venvs/jax/bin/pip install 'jax[cpu]==0.4.38' packaging openvino==2026.4.1
    python -m venv /work/venvs/torch   && /work/venvs/torch/bin/pip install torch==2.13.0 openvino==2026.4.1 \\
                                              openvino-tokenizers==2026.4.1.0 transformers tokenizers

    /work/venvs/tf/bin/python     scripts/export_frontends.py tf      # Keras SavedModel and in-memory, Keras 3's own
                                                                      # OpenVINO export, frozen graphs, TFLite (float,
                                                                      # float16, dynamic-range, int8), tf2onnx
    /work/venvs/paddle/bin/python scripts/export_frontends.py paddle  # PaddlePaddle's legacy .pdmodel
    /work/venvs/jax/bin/python    scripts/export_frontends.py jax     # jax.make_jaxpr
    /work/venvs/torch/bin/python  scripts/export_frontends.py torch   # torch.export with dynamic dims, torch.cond
    /work/venvs/tf/bin/python     scripts/export_frontends.py --label # relabel every file of tests/data/frontends

A part writes its small IR to ``tests/data/frontends/`` (committed: the tests need only openvino) and relabels the
folder: ``labels.json`` holds, per file, every op's output ports as ``read_model`` gives them (with
``openvino_tokenizers`` imported where installed), ``[partial shape, element type]`` per port by friendly name (a
list per name, in the order of ``get_ordered_ops``), as ``scripts/export_today.py`` labels ``tests/data/today``;
and under ``bodies`` the same for the layers of every If, Loop and TensorIterator body, keyed by the path of
friendly names and body names (``loop/body``, ``if/then``, ``outer/body/inner/body``).

``--probes DIR`` writes, besides, a larger and more varied corpus that is not committed (the round was measured on
it; the lead engineer compiles it with every older release): Keras stacks of SimpleRNN, LSTM, GRU and bidirectional
layers, tf.math.is_finite, tf.cond and tf.while_loop, dilated convolutions on dynamic spatial dims (SpaceToBatch),
resizes with float shape arithmetic, TFLite int8, Paddle conv nets, torch.cond; ``DIR/README.txt`` lists each file.
Random weights everywhere; nothing is downloaded.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "frontends"
LABELS = OUT / "labels.json"
SEED = 37
README: dict[str, str] = {}  # file name -> what it is (the probes' README.txt)


def save(model, out: Path, name: str, what: str, compress: bool = False) -> Path:
    """Save an ``openvino.Model`` as ``out/name.xml`` (FP16 compression only where asked) and note what it is."""
    import openvino as ov
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.xml"
    ov.save_model(model, str(path), compress_to_fp16=compress)
    README[path.name] = what
    print(f"wrote {path}", flush=True)
    return path


def attempt(jobs: list, out: Path) -> list[str]:
    """Run each job (a callable of ``out``); one a frontend cannot convert is reported, the rest go on."""
    failed = []
    for job in jobs:
        try:
            job(out)
        except Exception as e:  # a model this frontend or converter cannot do: noted, not fatal
            failed.append(job.__name__)
            print(f"{job.__name__}: FAILED {type(e).__name__}: {str(e)[:400]}", flush=True)
            traceback.print_exc(limit=2)
    return failed


# == TensorFlow, Keras, TFLite, tf2onnx (venv tf) ===============================================================
def _tf():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf
    tf.keras.utils.set_random_seed(SEED)  # Python's, numpy's and TensorFlow's generators
    return tf, np


def _keras_cnn(tf, channels=8, classes=5, dynamic=False):
    k = tf.keras
    inp = k.Input((None, None, 3) if dynamic else (32, 32, 3), name="image")
    x = k.layers.Conv2D(channels, 3, padding="same", activation="relu")(inp)
    x = k.layers.BatchNormalization()(x)
    x = k.layers.DepthwiseConv2D(3, padding="same")(x)
    x = k.layers.MaxPooling2D()(x)
    x = k.layers.Conv2D(channels * 2, 3, strides=2, padding="valid", activation="swish")(x)
    x = k.layers.GlobalAveragePooling2D()(x)
    x = k.layers.Dropout(0.1)(x)
    out = k.layers.Dense(classes, activation="softmax")(x)
    return k.Model(inp, out)


def _keras_text(tf, rnn="lstm", vocab=50, length=None):
    k = tf.keras
    inp = k.Input((length,), dtype="int32", name="tokens")
    x = k.layers.Embedding(vocab, 8)(inp)
    layer = {"lstm": k.layers.LSTM, "gru": k.layers.GRU, "simplernn": k.layers.SimpleRNN}[rnn]
    x = layer(8, return_sequences=True)(x)
    x = layer(6)(x)
    return k.Model(inp, k.layers.Dense(3)(x))


def _concrete(tf, fn, *specs):
    return tf.function(fn, autograph=False).get_concrete_function(*specs)


def _frozen(tf, concrete):
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    return convert_variables_to_constants_v2(concrete).graph.as_graph_def()


def _convert_graph_def(tf, graph_def, tmp: Path, name: str):
    import openvino as ov
    pb = tmp / f"{name}.pb"
    tf.io.write_graph(graph_def, str(tmp), pb.name, as_text=False)
    return ov.convert_model(str(pb))


def _savedmodel(tf, model, tmp: Path, name: str):
    import openvino as ov
    folder = tmp / name
    model.export(str(folder), verbose=False)
    return ov.convert_model(str(folder))


def _tflite(tf, model, kind: str, sample_shape, tmp: Path, name: str):
    """A Keras model through TFLiteConverter: float, float16, dynamic-range or int8 (full integer, a
    representative dataset of random samples), converted by OpenVINO's TFLite frontend."""
    import numpy as np
    import openvino as ov
    conv = tf.lite.TFLiteConverter.from_keras_model(model)
    if kind in ("float16", "dynamic", "int8"):
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
    if kind == "float16":
        conv.target_spec.supported_types = [tf.float16]
    if kind == "int8":
        rng = np.random.default_rng(SEED)

        def data():
            for _ in range(4):
                yield [rng.standard_normal((1, *sample_shape)).astype(np.float32)]
        conv.representative_dataset = data
        conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        conv.inference_input_type = tf.int8
        conv.inference_output_type = tf.int8
    path = tmp / f"{name}.tflite"
    path.write_bytes(conv.convert())
    return ov.convert_model(str(path))


def _tf2onnx(tf, function, specs, tmp: Path, name: str, opset: int = 17):
    import openvino as ov
    import tf2onnx
    path = tmp / f"{name}.onnx"
    tf2onnx.convert.from_function(function, input_signature=specs, opset=opset, output_path=str(path))
    return ov.convert_model(str(path))


def tf_fixtures(out: Path) -> list[str]:
    """The committed TensorFlow-family fixtures: each frontend path once, small."""
    tf, np = _tf()
    tmp = Path(tempfile.mkdtemp())
    import openvino as ov

    def keras_savedmodel_cnn(out):
        save(_savedmodel(tf, _keras_cnn(tf, dynamic=True), tmp, "cnn"), out, "keras_savedmodel_cnn",
             "Keras 3 CNN (dynamic H, W), model.export SavedModel, convert_model(folder)")

    def keras_inmemory_lstm(out):
        model = _keras_text(tf, "lstm")
        save(ov.convert_model(model), out, "keras_inmemory_lstm", "Keras 3 LSTM stack, convert_model(model) in memory")

    def keras_openvino_export(out):
        model = _keras_cnn(tf, dynamic=False)
        xml = tmp / "kov.xml"
        model.export(str(xml), format="openvino", verbose=False)
        save(ov.Core().read_model(str(xml)), out, "keras_openvino_export", "Keras 3 model.export(format='openvino')")

    def frozen_graph_ops(out):
        kernel = tf.constant(np.random.default_rng(SEED).standard_normal((3, 3, 3, 4)).astype(np.float32))

        def fn(x, n):
            y = tf.image.resize(x, tf.shape(x)[1:3] * 2, method="nearest")
            z = tf.nn.conv2d(y, kernel, 1, "SAME", dilations=2)
            ok = tf.math.is_finite(z)
            z = tf.where(ok, z, tf.zeros_like(z))
            z = tf.reshape(z, [tf.shape(z)[0], -1, 4])
            top = tf.strided_slice(z, [0, 1, 0], tf.stack([tf.shape(z)[0], n, 4]))
            sb = tf.space_to_batch_nd(x, [2, 2], [[0, 1], [1, 0]])
            bs = tf.batch_to_space(tf.nn.relu(sb), [2, 2], [[0, 1], [1, 0]])
            return tf.reduce_mean(top, axis=1), tf.cond(tf.reduce_sum(z) > 0, lambda: z * 2.0, lambda: z - 1.0), \
                tf.reduce_sum(bs, axis=3)
        specs = (tf.TensorSpec([None, None, None, 3], tf.float32), tf.TensorSpec([], tf.int32))
        gd = _frozen(tf, _concrete(tf, fn, *specs))
        save(_convert_graph_def(tf, gd, tmp, "ops"), out, "tf_frozen_ops",
             "TF frozen graph: resize x2 from tf.shape, dilated conv, is_finite, strided_slice with a run-time end, "
             "tf.cond, space_to_batch_nd and batch_to_space on dynamic dims")

    def frozen_while(out):
        def fn(x):
            i0 = tf.constant(0)
            _, acc = tf.while_loop(lambda i, a: i < tf.shape(x)[0], lambda i, a: (i + 1, a + tf.gather(x, i)),
                                   (i0, tf.zeros_like(x[0])))
            return acc
        gd = _frozen(tf, _concrete(tf, fn, tf.TensorSpec([None, 4, 3], tf.float32)))
        save(_convert_graph_def(tf, gd, tmp, "while"), out, "tf_frozen_while",
             "TF frozen graph: tf.while_loop over a dynamic batch (a Loop)")

    def tflite_kinds(out):
        model = _keras_cnn(tf, channels=4)
        for kind in ("float", "float16", "dynamic", "int8"):
            save(_tflite(tf, model, kind, (32, 32, 3), tmp, f"cnn_{kind}"), out, f"tflite_cnn_{kind}",
                 f"Keras CNN through TFLiteConverter ({kind})")

    def tf2onnx_cnn(out):
        model = _keras_cnn(tf, channels=4, dynamic=True)
        spec = (tf.TensorSpec([None, None, None, 3], tf.float32, name="image"),)
        fn = tf.function(lambda x: model(x, training=False))
        save(_tf2onnx(tf, fn, spec, tmp, "cnn"), out, "tf2onnx_cnn", "Keras CNN (dynamic N, H, W) through tf2onnx")

    def tf2onnx_ops(out):
        def fn(x):
            z = tf.zeros(tf.shape(x)[:2])  # ConstantOfShape
            y = tf.image.resize(x, tf.cast(tf.cast(tf.shape(x)[1:3], tf.float32) / 2.0 + 1.0, tf.int32))
            return tf.reduce_sum(y, axis=[1, 2]) + tf.reduce_sum(z)
        spec = (tf.TensorSpec([None, None, None, 3], tf.float32, name="x"),)
        save(_tf2onnx(tf, tf.function(fn), spec, tmp, "ops"), out, "tf2onnx_ops",
             "tf2onnx: ConstantOfShape, resize by float shape arithmetic")

    return attempt([keras_savedmodel_cnn, keras_inmemory_lstm, keras_openvino_export, frozen_graph_ops, frozen_while,
                    tflite_kinds, tf2onnx_cnn, tf2onnx_ops], out)


def tf_probes(out: Path) -> list[str]:
    """The TensorFlow-family corpus: more models, more variants of each path."""
    tf, np = _tf()
    tmp = Path(tempfile.mkdtemp())
    import openvino as ov
    k = tf.keras
    jobs = []

    def job(fn):
        jobs.append(fn)
        return fn

    @job
    def keras_rnns(out):
        for rnn in ("simplernn", "lstm", "gru"):
            for length in (None, 12):
                model = _keras_text(tf, rnn, length=length)
                tag = "dyn" if length is None else "static"
                save(ov.convert_model(model), out, f"keras_{rnn}_{tag}_inmemory", f"Keras {rnn} stack, seq {tag}, in memory")
                save(_savedmodel(tf, model, tmp, f"{rnn}{tag}"), out, f"keras_{rnn}_{tag}_savedmodel",
                     f"Keras {rnn} stack, seq {tag}, SavedModel")

    @job
    def keras_simplernn_static(out):
        inp = k.Input((10, 6), name="seq", batch_size=2)
        x = inp
        for units in (8, 8, 4):
            x = k.layers.SimpleRNN(units, return_sequences=True)(x)
        x = k.layers.SimpleRNN(4)(x)
        model = k.Model(inp, k.layers.Dense(2)(x))
        save(ov.convert_model(model), out, "keras_simplernn_stack_static", "Keras stack of 4 SimpleRNN, static [2,10,6]")
        save(_savedmodel(tf, model, tmp, "srnn"), out, "keras_simplernn_stack_static_sm",
             "Keras stack of 4 SimpleRNN, static [2,10,6], SavedModel")

    @job
    def keras_bidirectional(out):
        inp = k.Input((None, 5), name="seq")
        x = k.layers.Bidirectional(k.layers.LSTM(6, return_sequences=True))(inp)
        x = k.layers.Bidirectional(k.layers.GRU(4))(x)
        save(ov.convert_model(k.Model(inp, x)), out, "keras_bidirectional", "Keras bidirectional LSTM then GRU")

    @job
    def keras_convs(out):
        for dyn in (False, True):
            m = _keras_cnn(tf, dynamic=dyn)
            tag = "dyn" if dyn else "static"
            save(ov.convert_model(m), out, f"keras_cnn_{tag}", f"Keras CNN {tag}, in memory")
            save(_savedmodel(tf, m, tmp, f"cnn{tag}"), out, f"keras_cnn_{tag}_savedmodel", f"Keras CNN {tag}, SavedModel")
        inp = k.Input((None, None, 3))
        x = k.layers.Conv2D(4, 3, dilation_rate=2, padding="same")(inp)
        x = k.layers.Conv2D(4, 3, dilation_rate=3, padding="valid")(x)
        x = k.layers.SeparableConv2D(6, 3, padding="same")(x)
        x = k.layers.UpSampling2D(2)(x)
        x = k.layers.Conv2DTranspose(3, 3, strides=2, padding="same")(x)
        x = k.layers.ZeroPadding2D(1)(x)
        x = k.layers.Cropping2D(1)(x)
        save(ov.convert_model(k.Model(inp, x)), out, "keras_dilated_dyn", "Keras dilated/separable/transposed convs, dynamic")
        inp = k.Input((None, 4))
        x = k.layers.Conv1D(6, 3, dilation_rate=2, padding="causal")(inp)
        x = k.layers.MultiHeadAttention(2, 4)(x, x)
        x = k.layers.LayerNormalization()(x)
        x = k.layers.GlobalMaxPooling1D()(x)
        save(ov.convert_model(k.Model(inp, x)), out, "keras_conv1d_attention", "Keras causal dilated Conv1D + attention")

    @job
    def keras_openvino_export(out):
        for dyn in (False, True):
            model = _keras_cnn(tf, dynamic=dyn)
            xml = tmp / f"kov{dyn}.xml"
            model.export(str(xml), format="openvino", verbose=False)
            save(ov.Core().read_model(str(xml)), out, f"keras_openvino_export_{'dyn' if dyn else 'static'}",
                 "Keras 3 model.export(format='openvino')")

    @job
    def tf_graphs(out):
        def is_finite(x):
            m = tf.math.is_finite(x)
            return tf.where(m, x, 0.0), tf.reduce_all(m, axis=-1), tf.math.is_nan(x), tf.math.is_inf(x)

        def conds(x, flag):
            a = tf.cond(flag, lambda: tf.reshape(x, [-1]), lambda: tf.reshape(x * 2.0, [-1]))
            b = tf.cond(tf.shape(x)[0] > 2, lambda: x[:2], lambda: x)
            return a, b

        def whiles(x):
            def body(i, acc, h):
                h = tf.tanh(tf.matmul(h, tf.ones((4, 4))) + x[:, i, :])
                return i + 1, acc.write(i, h), h
            ta = tf.TensorArray(tf.float32, size=tf.shape(x)[1])
            _, ta, h = tf.while_loop(lambda i, *_: i < tf.shape(x)[1], body,
                                     (0, ta, tf.zeros([tf.shape(x)[0], 4])))
            return ta.stack(), h

        def slices(x, b, e):
            return x[b:e], x[:, b:], tf.slice(x, [0, b], [-1, 2]), tf.gather(x, tf.range(b, e)), \
                tf.reverse(x, [1])[::2]

        def space_batch(x):
            y = tf.space_to_batch_nd(x, [2, 2], [[0, 1], [1, 0]])
            return tf.batch_to_space(y, [2, 2], [[0, 1], [1, 0]]), y

        def resize(x):
            hw = tf.cast(tf.shape(x)[1:3], tf.float32)
            nh = tf.cast(tf.math.ceil(hw * 1.5), tf.int32)
            up = tf.image.resize(x, nh, method="bilinear")
            down = tf.image.resize(x, tf.cast(hw / 3.0, tf.int32), method="nearest")
            return up, down, tf.nn.avg_pool2d(up, 2, 2, "SAME")

        def broadcasts(x):
            z = tf.broadcast_to(tf.constant(1.0), tf.shape(x))
            f = tf.fill(tf.stack([tf.shape(x)[0], 3]), 2.0)
            o = tf.ones_like(x[:, :1])
            return z + x, f, tf.tile(o, [1, 5]), tf.one_hot(tf.argmax(x, -1), 4)

        graphs = [("is_finite", is_finite, [tf.TensorSpec([None, 6], tf.float32)]),
                  ("cond", conds, [tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([], tf.bool)]),
                  ("while_ta", whiles, [tf.TensorSpec([None, None, 4], tf.float32)]),
                  ("slices", slices, [tf.TensorSpec([None, 8], tf.float32), tf.TensorSpec([], tf.int32),
                                      tf.TensorSpec([], tf.int32)]),
                  ("space_batch", space_batch, [tf.TensorSpec([None, None, None, 3], tf.float32)]),
                  ("space_batch_static", space_batch, [tf.TensorSpec([1, 7, 9, 3], tf.float32)]),
                  ("resize", resize, [tf.TensorSpec([None, None, None, 3], tf.float32)]),
                  ("broadcasts", broadcasts, [tf.TensorSpec([None, 7], tf.float32)])]
        for name, fn, specs in graphs:
            conc = _concrete(tf, fn, *specs)
            try:
                save(_convert_graph_def(tf, _frozen(tf, conc), tmp, name), out, f"tf_frozen_{name}",
                     f"TF frozen graph: {name}")
            except Exception as e:
                print(f"frozen {name}: FAILED {e}"[:300])
            try:
                save(ov.convert_model(_concrete(tf, fn, *specs)), out, f"tf_function_{name}",
                     f"TF concrete function in memory: {name}")
            except Exception as e:
                print(f"function {name}: FAILED {e}"[:300])
            try:
                named = [tf.TensorSpec(s.shape, s.dtype, name=f"in{i}") for i, s in enumerate(specs)]
                save(_tf2onnx(tf, tf.function(fn, autograph=False), named, tmp, name), out, f"tf2onnx_{name}",
                     f"tf2onnx (opset 17): {name}")
            except Exception as e:
                print(f"tf2onnx {name}: FAILED {e}"[:300])

    @job
    def tflite_all(out):
        models = {"cnn": (_keras_cnn(tf, channels=4), (32, 32, 3))}
        inp = k.Input((16, 6), batch_size=1)
        x = k.layers.Conv1D(8, 3, padding="same", activation="relu")(inp)
        x = k.layers.LSTM(8, return_sequences=True, unroll=True)(x)
        x = k.layers.Reshape((4, 32))(x)
        x = k.layers.Dense(5)(k.layers.Flatten()(x))
        models["seq"] = (k.Model(inp, x), (16, 6))
        inp = k.Input((20, 20, 3), batch_size=1)
        y = k.layers.Conv2D(6, 3, dilation_rate=2, padding="same")(inp)
        y = k.layers.AveragePooling2D(2)(y)
        y = k.layers.Conv2DTranspose(4, 3, strides=2, padding="same")(y)
        y = k.layers.Concatenate()([y, k.layers.Conv2D(4, 1)(inp)])
        models["dilated"] = (k.Model(inp, y), (20, 20, 3))
        for mname, (model, shape) in models.items():
            for kind in ("float", "float16", "dynamic", "int8"):
                save(_tflite(tf, model, kind, shape, tmp, f"{mname}_{kind}"), out, f"tflite_{mname}_{kind}",
                     f"TFLite {kind}: {mname}")

    return attempt(jobs, out)


# == PaddlePaddle, legacy .pdmodel (venv paddle) ================================================================
def _paddle_static(build, feeds, tmp: Path, name: str):
    """A static-graph Paddle program built by ``build`` (PIR off: the legacy ProgramDesc), saved as .pdmodel by
    paddle.static.save_inference_model, converted by OpenVINO's Paddle frontend."""
    import openvino as ov
    import paddle
    paddle.seed(SEED)
    paddle.enable_static()
    paddle.set_flags({"FLAGS_enable_pir_api": False})
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        inputs = [paddle.static.data(n, s, dtype=d) for n, s, d in feeds]
        outputs = build(*inputs)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start)
        prefix = str(tmp / name)
        paddle.static.save_inference_model(prefix, inputs, outputs, exe, program=main)
    return ov.convert_model(prefix + ".pdmodel")


def _paddle_models(tiny: bool):
    import paddle
    import paddle.nn.functional as F
    from paddle import nn

    def convnet(x):
        c = nn.Conv2D(3, 8, 3, padding=1)(x)
        c = nn.BatchNorm2D(8)(c)
        c = F.relu(c)
        c = nn.MaxPool2D(2)(c)
        c = nn.Conv2D(8, 8, 3, padding=1, groups=8)(c)
        c = nn.Conv2D(8, 16, 1)(c)
        c = F.hardswish(c)
        c = nn.AdaptiveAvgPool2D(1)(c)
        c = paddle.flatten(c, 1)
        return [F.softmax(nn.Linear(16, 5)(c))]

    def detect_head(x):
        c = nn.Conv2D(3, 8, 3, stride=2, padding=1)(x)
        up = F.interpolate(c, scale_factor=2, mode="nearest")
        cat = paddle.concat([up, x], axis=1)
        y = nn.Conv2D(11, 6, 1)(cat)
        shp = paddle.shape(y)
        y = paddle.reshape(y, [shp[0], 2, 3, shp[2] * shp[3]])
        y = paddle.transpose(y, [0, 3, 1, 2])
        return [y, paddle.slice(y, axes=[1], starts=[1], ends=[-1])]

    def seq(x):
        e = nn.Linear(6, 8)(x)
        out, _ = nn.GRU(8, 8)(e)
        out2, _ = nn.LSTM(8, 4)(out)
        return [paddle.mean(out2, axis=1)]

    def dilated(x):
        c = nn.Conv2D(3, 4, 3, dilation=2, padding=2)(x)
        c = nn.Conv2DTranspose(4, 3, 4, stride=2, padding=1)(c)
        p = F.pad(c, [1, 1, 2, 0])
        return [nn.AvgPool2D(3, stride=2, padding=1)(p), paddle.unsqueeze(paddle.flatten(F.adaptive_avg_pool2d(p, 1), 1), 0)]

    items = [("convnet", convnet, [("x", [None, 3, 32, 32], "float32")]),
             ("detect", detect_head, [("x", [None, 3, None, None], "float32")]),
             ("dilated", dilated, [("x", [-1, 3, -1, -1], "float32")])]
    if not tiny:
        items += [("convnet_static", convnet, [("x", [2, 3, 32, 32], "float32")]),
                  ("seq_gru_lstm", seq, [("x", [None, 10, 6], "float32")]),
                  ("detect_static", detect_head, [("x", [1, 3, 24, 24], "float32")])]
    return items


def paddle_fixtures(out: Path, tiny: bool = True) -> list[str]:
    os.environ["FLAGS_enable_pir_api"] = "0"  # before paddle is imported: the legacy ProgramDesc (.pdmodel)
    tmp = Path(tempfile.mkdtemp())
    jobs = []
    for name, build, feeds in _paddle_models(tiny):
        def job(out, name=name, build=build, feeds=feeds):
            save(_paddle_static(build, feeds, tmp, name), out, f"paddle_{name}", f"PaddlePaddle legacy .pdmodel: {name}")
        job.__name__ = f"paddle_{name}"
        jobs.append(job)
    return attempt(jobs, out)


# == JAX through jax.make_jaxpr (venv jax) =====================================================================
def jax_fixtures(out: Path, tiny: bool = True) -> list[str]:
    import jax
    import jax.numpy as jnp
    import numpy as np
    import openvino as ov
    key = jax.random.PRNGKey(SEED)
    w1 = jax.random.normal(key, (3, 3, 3, 8)) * 0.1
    w2 = jax.random.normal(key, (8 * 8 * 8, 5)) * 0.1

    def cnn(x):
        y = jax.lax.conv_general_dilated(x, w1, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        y = jnp.maximum(y, 0.0)
        y = jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        y = y.reshape(y.shape[0], -1) @ w2
        e = jnp.exp(y - y.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    def mlp_attention(x):
        q = x @ jnp.ones((8, 8))
        s = jnp.exp(q @ jax.lax.transpose(x, (0, 2, 1)) * 0.35)
        a = s / s.sum(axis=-1, keepdims=True)
        y = a @ x
        y = jax.lax.concatenate([y, jax.lax.slice(x, (0, 0, 0), (2, 6, 8), (1, 2, 1))], 1)
        return jax.lax.transpose(y, (1, 0, 2)).reshape(-1, 8), jnp.tanh(x).mean(axis=1)

    def scan(x):
        def step(h, xt):
            h = jnp.tanh(h @ jnp.eye(4) + xt)
            return h, h * 2
        h, ys = jax.lax.scan(step, jnp.zeros((x.shape[1],)), x)
        return h, ys

    items = [("cnn", cnn, [np.zeros((2, 16, 16, 3), np.float32)]),
             ("attention", mlp_attention, [np.zeros((2, 6, 8), np.float32)])]
    if not tiny:
        items += [("scan", scan, [np.zeros((5, 4), np.float32)]),
                  ("cnn_b1", cnn, [np.zeros((1, 16, 16, 3), np.float32)])]
    jobs = []
    for name, fn, args in items:
        def job(out, name=name, fn=fn, args=args):
            jaxpr = jax.make_jaxpr(fn)(*args)
            save(ov.convert_model(jaxpr), out, f"jax_{name}", f"JAX jax.make_jaxpr: {name}")
        job.__name__ = f"jax_{name}"
        jobs.append(job)
    return attempt(jobs, out)


# == torch.export with dynamic dims (venv torch) ===============================================================
def torch_fixtures(out: Path, tiny: bool = True) -> list[str]:
    import openvino as ov
    import torch
    import torch.nn.functional as F
    from torch import nn
    from torch.export import Dim, export
    torch.manual_seed(SEED)

    class Cnn(nn.Module):
        def __init__(s):
            super().__init__()
            s.c1, s.c2, s.fc = nn.Conv2d(3, 8, 3, padding=1), nn.Conv2d(8, 8, 3, stride=2), nn.Linear(8, 4)

        def forward(s, x):
            y = F.relu(s.c1(x))
            y = F.interpolate(y, scale_factor=0.5, mode="nearest")
            y = s.c2(y)
            return s.fc(y.mean((2, 3))), y.flatten(2).transpose(1, 2)

    class Seq(nn.Module):
        def __init__(s):
            super().__init__()
            s.emb, s.lstm, s.head = nn.Embedding(30, 8), nn.LSTM(8, 8, batch_first=True), nn.Linear(8, 3)

        def forward(s, ids):
            y, _ = s.lstm(s.emb(ids))
            b, t, c = y.shape
            y = y.reshape(b, t, 2, c // 2).permute(0, 2, 1, 3)
            return s.head(y.reshape(b * 2, t, c // 2).repeat(1, 1, 2)[:, -1])

    class Slicer(nn.Module):
        def forward(s, x, n):
            k = n.shape[0]
            return x[:, :k], x[:, k:], torch.narrow(x, 1, 1, 2), x.unfold(1, 2, 2)

    class Cond(nn.Module):
        def forward(s, x):
            return torch.cond(x.sum() > 0, lambda x: x.reshape(-1) * 2, lambda x: x.reshape(-1) - 1, (x,))

    auto = Dim.AUTO  # dynamic where the model allows it, torch.export's own ranges
    items = [("cnn", Cnn(), (torch.randn(2, 3, 16, 16),), {"x": {0: auto, 2: auto, 3: auto}}),
             ("lstm", Seq(), (torch.randint(0, 30, (2, 7)),), {"ids": {0: auto}}),
             ("slicer", Slicer(), (torch.randn(2, 9), torch.zeros(3)), {"x": {0: auto, 1: auto}, "n": {0: auto}})]
    if not tiny:
        # a dynamic time axis: torch.export unrolls the LSTM over the example's 7 steps (its Squeezes hold only from
        # there on: irreshape's IR403/IR503 warnings on this file are true)
        items += [("lstm_dynamic_time", Seq(), (torch.randint(0, 30, (2, 7)),), {"ids": {0: auto, 1: auto}}),
                  ("cond", Cond(), (torch.randn(3, 4),), {"x": {0: auto}}),
                  ("cnn_static", Cnn(), (torch.randn(1, 3, 16, 16),), None)]
    jobs = [tokenizer_unigram]
    for name, module, args, dyn in items:
        def job(out, name=name, module=module, args=args, dyn=dyn):
            module.eval()
            ep = export(module, args, dynamic_shapes=dyn)
            save(ov.convert_model(ep), out, f"torch_export_{name}", f"torch.export (dynamic dims {dyn}): {name}")
        job.__name__ = f"torch_{name}"
        jobs.append(job)
    return attempt(jobs, out)


def tokenizer_unigram(out: Path) -> None:
    """A Unigram (SentencePiece-style) tokenizer trained here with the ``tokenizers`` library on a few sentences and
    converted by openvino_tokenizers: UnigramTokenizer, CombineSegments, Truncate, RaggedToDense (needs
    ``transformers`` and ``tokenizers`` in the venv)."""
    from openvino_tokenizers import convert_tokenizer
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast
    text = ["The quick brown fox jumps over the lazy dog.", "OpenVINO reads IR files; irreshape checks them.",
            "Tokenizers split text into pieces, then ids.", "Hello, world! 123 456 7890"]
    tok = Tokenizer(models.Unigram())
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.train_from_iterator(text * 4, trainers.UnigramTrainer(vocab_size=80, special_tokens=["<pad>", "<s>", "</s>",
                                                                                                "<unk>"],
                                                               unk_token="<unk>"))
    tok.post_processor = processors.TemplateProcessing(single="<s> $A </s>", pair="<s> $A </s> $B </s>",
                                                       special_tokens=[("<s>", 1), ("</s>", 2)])
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<s>", eos_token="</s>", unk_token="<unk>",
                                   pad_token="<pad>", model_max_length=16)
    ov_tok, ov_detok = convert_tokenizer(fast, with_detokenizer=True, max_length=16)
    save(ov_tok, out, "unigram_tokenizer", "openvino_tokenizers: a Unigram tokenizer trained here, max_length 16")
    save(ov_detok, out, "unigram_detokenizer", "openvino_tokenizers: its detokenizer")


# == labels ====================================================================================================
# an op's bodies as the Python API gives them: (the body's name in the IR, the getter)
BODIES = {"TensorIterator": (("body", "get_function"),), "Loop": (("body", "get_function"),),
          "If": (("then", "get_then_body"), ("else", "get_else_body"))}


def _bodies(op) -> list:
    return [(name, getattr(op, getter)()) for name, getter in BODIES.get(op.get_type_name(), ())]


def _ports(ops) -> dict[str, list]:
    layers: dict[str, list] = {}
    for op in ops:
        layers.setdefault(op.get_friendly_name(), []).append(
            [[str(o.get_partial_shape()), o.get_element_type().get_type_name()] for o in op.outputs()])
    return layers


def label(paths: list[Path]) -> dict:
    """Per file: the op types, every op's output ports by friendly name, and every body's (see the docstring)."""
    import openvino as ov
    try:
        import openvino_tokenizers  # noqa: F401  registers the tokenizer ops with read_model
    except ImportError:
        pass
    core = ov.Core()
    labels = {}
    for path in sorted(paths):
        model = core.read_model(str(path))
        ops = model.get_ordered_ops()
        bodies: dict[str, dict] = {}

        def walk(ops, prefix):
            for op in ops:
                for name, body in _bodies(op):
                    key = f"{prefix}{op.get_friendly_name()}/{name}"
                    inner = body.get_ordered_ops()
                    bodies[key] = _ports(inner)
                    walk(inner, key + "/")
        walk(ops, "")
        labels[path.name] = {"types": sorted({op.get_type_name() for op in ops}), "layers": _ports(ops),
                             "bodies": bodies}
        KEEP.append((model, ops))
    return labels


KEEP: list = []  # read models stay alive: freeing an old tokenizer's extension ops crashes openvino_tokenizers

PARTS = {"tf": (lambda out: tf_fixtures(out), tf_probes),
         "paddle": (lambda out: paddle_fixtures(out), lambda out: paddle_fixtures(out, tiny=False)),
         "jax": (lambda out: jax_fixtures(out), lambda out: jax_fixtures(out, tiny=False)),
         "torch": (lambda out: torch_fixtures(out), lambda out: torch_fixtures(out, tiny=False))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("part", nargs="?", choices=sorted(PARTS), help="the frontend this venv has")
    ap.add_argument("--label", action="store_true", help="only relabel tests/data/frontends")
    ap.add_argument("--probes", metavar="DIR", type=Path, help="also write the larger corpus (not committed) to DIR")
    ap.add_argument("--no-fixtures", action="store_true", help="with --probes: only the corpus")
    args = ap.parse_args()
    failed: list[str] = []
    if args.part and not args.no_fixtures:
        failed += PARTS[args.part][0](OUT)
    if args.part and args.probes:
        README.clear()
        failed += PARTS[args.part][1](args.probes)
        readme = args.probes / "README.txt"
        known = {}
        if readme.exists():
            for line in readme.read_text().splitlines():
                name, _, what = line.partition("  ")
                if name.endswith(".xml"):
                    known[name] = what.strip()
        known.update(README)
        header = ("IR files converted by openvino 2026.4.1 from small random-weight models (scripts/export_frontends.py "
                  "--probes); labels.json beside them: read_model's partial shape and element type per output port.\n\n")
        readme.write_text(header + "".join(f"{n}  {w}\n" for n, w in sorted(known.items())))
        labels_path = args.probes / "labels.json"
        labels_path.write_text(json.dumps(label(sorted(args.probes.glob("*.xml"))), sort_keys=True) + "\n")
    if args.part or args.label:
        xmls = sorted(OUT.glob("*.xml"))
        LABELS.write_text(json.dumps(label(xmls), sort_keys=True) + "\n")
        size = sum(p.stat().st_size for p in OUT.iterdir())
        print(f"{len(xmls)} IR files, {size / 1e6:.2f} MB in {OUT.relative_to(ROOT)}; failed: {failed or 'none'}")
    os._exit(0)  # no teardown: see KEEP


if __name__ == "__main__":
    sys.exit(main())
