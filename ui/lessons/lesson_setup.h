#pragma once
// What a lesson's "setup" may hold and how it becomes engine settings. A setup is a flat map:
//   prompt (string), runLength (whole number, 1..2048), action ("step" | "run" | "none": what
//   the page does after applying it), and sampler keys named exactly as the fields of
//   dlab::SamplerParams (temperature, topK, ..., seed, order). A key that is not given keeps the
//   engine's default. PlaygroundPage::applySetup() / currentSetup() use the same keys. A lesson for
//   the Serving lab (page "serving") sets its Safety tab: prompt, runLength (the reply's tokens),
//   action, the lists inputFilter, bannedPhrases, refusalPatterns, outputFilter (lists of texts)
//   and ignoreCase (true / false); a list not given keeps the lesson examples' one. A lesson for the
//   KV page (page "kv") sets its memory calculator: calcModel (a preset's key, e.g. "llama2-7b", or
//   "loaded"), calcContext (positions), calcSequences, calcDtype ("f16" | "f32" | "q8_0") and
//   calcAttention ("as-trained" | "mha" | "mqa"); a key not given keeps the calculator's value.
#include <QStringList>
#include <QVariantMap>

#include "sampling/sampler_params.h"

namespace dlab::ui {

// Every key a setup may hold, in the order they are documented.
const QStringList& lessonSetupKeys();

// The setup with its values checked and typed: whole-number keys as int, the seed as qulonglong,
// the other numbers as double, the strings as QString (JSON gives every number as a double).
// Throws dlab::Error with one sentence naming the key ("setup.topK must be a whole number; got
// 2.5"), for an unknown key too. The sampler ranges are checked by samplerParamsFromSetup().
QVariantMap normalizedSetup(const QVariantMap& setup);

// The sampler part of a setup on top of SamplerParams' defaults, validated
// (SamplerParams::validate(), its option names rewritten as "setup.KEY"). The non-sampler keys
// (prompt, runLength, action) are ignored. Throws dlab::Error naming the key.
SamplerParams samplerParamsFromSetup(const QVariantMap& setup);

}  // namespace dlab::ui
