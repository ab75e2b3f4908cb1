#include "core/error.h"
#include "sampling/stage.h"
#include "sampling/stage_banned_phrases.h"
#include "sampling/stage_grammar.h"
#include "sampling/stages_llamacpp.h"
#include "sampling/stages_penalty.h"
#include "sampling/stages_truncation.h"

namespace dlab {

std::unique_ptr<SamplerStage> makeStage(const std::string& name, const SamplerParams& p) {
    if (name == "logit-bias") return std::make_unique<LogitBiasStage>(p.logitBias);
    if (name == "repetition") return std::make_unique<RepetitionPenaltyStage>(p.repeatPenalty, p.penaltyLastN);
    if (name == "freq-presence")
        return std::make_unique<FrequencyPresenceStage>(p.frequencyPenalty, p.presencePenalty, p.penaltyLastN);
    if (name == "no-repeat-ngram") return std::make_unique<NoRepeatNgramStage>(p.noRepeatNgram);
    if (name == "dry")
        return std::make_unique<DryStage>(p.dryMultiplier, p.dryBase, p.dryAllowedLength, p.dryPenaltyLastN, p.dryBreakers);
    if (name == "temperature") return std::make_unique<TemperatureStage>(p.temperature);
    if (name == "top-k") return std::make_unique<TopKStage>(p.topK);
    if (name == "top-p") return std::make_unique<TopPStage>(p.topP);
    if (name == "min-p") return std::make_unique<MinPStage>(p.minP);
    if (name == "typical") return std::make_unique<TypicalStage>(p.typicalP);
    if (name == "xtc") return std::make_unique<XtcStage>(p.xtcProbability, p.xtcThreshold);
    if (name == "top-n-sigma") return std::make_unique<TopNSigmaStage>(p.topNSigma);
    if (name == "mirostat") return std::make_unique<MirostatStage>(p.mirostatTau, p.mirostatEta);
    if (name == "mirostat-v1") return std::make_unique<MirostatV1Stage>(p.mirostatTau, p.mirostatEta, p.mirostatM);
    if (name == "grammar") return makeGrammarStage(p);
    if (name == "banned-phrases") return makeBannedPhrasesStage(p);
    throw Error("unknown sampler stage '" + name + "'; " + stageOrderHelp());
}

}  // namespace dlab
