// parseSessionJson(): reads and checks a saved session (the writer is session_json_write.cpp).
// Fields are read in an order that lets each check use what came before: the model's vocabulary
// bounds every token id, and the token table is read before anything that needs a label.
#include <algorithm>
#include <limits>
#include <set>

#include "core/error.h"
#include "generate/run_spec.h"
#include "session/json_node.h"
#include "session/session_file.h"

namespace dlab {

namespace {

using json_check::Json;
using json_check::Node;

constexpr int64_t kMaxVocab = int64_t(1) << 22;      // a replay allocates one float per token per drawn step
constexpr int kMaxDepth = 100;                        // nesting of the document (a session needs about 8)
constexpr size_t kMaxTokenBytes = 1024;               // one token's piece
constexpr size_t kMaxList = size_t(1) << 20;          // candidates, raw logits, biases… per list
constexpr size_t kMaxStages = 64;
constexpr int64_t kMaxCount = int64_t(1) << 40;       // positions, blocks, bytes
constexpr int64_t kMaxAttention = int64_t(1) << 24;   // attention weights of one step

// nlohmann's parser keeps its own stack, but dump() and the checks below recurse: refuse a
// document nested deeper than any session before parsing it.
void checkDepth(std::string_view text, const std::string& source) {
    int depth = 0;
    bool inString = false, escaped = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxDepth)
                throw Error(source + ": the JSON nests deeper than " + std::to_string(kMaxDepth) + " levels at byte " + std::to_string(i) +
                            "; a session file needs far fewer (this is not one, or it is damaged)");
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
}

class Reader {
public:
    Reader(const std::string& source) : source_(source) {}

    SavedSession read(const Json& doc) {
        const Node root(doc, source_);
        root.object();
        SavedSession s;
        if (!root.has("format")) throw Error(source_ + ": not a Decoding Lab session file (it has no \"format\" field)");
        const Node format = root.field("format", "a string");
        if (!format.value().is_string() || format.value().get<std::string>() != kSessionFormat)
            throw Error(source_ + ": not a Decoding Lab session file (its \"format\" is " + json_check::shortValue(format.value()) +
                        ", not \"" + kSessionFormat + "\")");
        s.format = kSessionFormat;
        const Node version = root.field("version", "a whole number");
        s.version = static_cast<int>(version.integer(1, std::numeric_limits<int>::max()));
        if (s.version > kSessionVersion)
            throw Error(source_ + ": written by a newer Decoding Lab (session format version " + std::to_string(s.version) +
                        "; this one reads up to version " + std::to_string(kSessionVersion) + "); update the app to open it");
        s.page = root.field("page", "a page id such as \"playground\"").string(64);
        if (s.page.empty()) root.field("page", "").fail("a page id such as \"playground\"");

        const Node model = root.field("model", "an object with name, arch, vocab and bos");
        s.model.name = model.field("name", "a string").string(4096);
        s.model.arch = model.field("arch", "a string").string(64);
        s.model.vocab = model.field("vocab", "a whole number").integer(1, kMaxVocab);
        vocab_ = s.model.vocab;
        s.model.bos = static_cast<TokenId>(model.field("bos", "a token id or -1").integer(-1, vocab_ - 1));

        readTokens(root.field("tokens", "an array of tokens"), s);
        s.prompt = root.field("prompt", "a string").string(kMaxSessionFileBytes);
        const Node prompt = root.field("promptTokens", "an array of token ids");
        const size_t n = prompt.array(kMaxList);
        if (n == 0) prompt.fail("an array of at least one token id (the prompt as the model saw it)");
        for (size_t i = 0; i < n; ++i) s.promptTokens.push_back(shownToken(prompt.item(i)));
        s.sampler = readSampler(root.field("sampler", "an object with the sampler settings"));
        readBranches(root.field("branches", "an array of branches"), s);
        const Node current = root.field("currentBranch", "the id of a branch");
        s.currentBranch = static_cast<int>(current.integer(0, std::numeric_limits<int>::max()));
        if (!s.branch(s.currentBranch)) current.fail("the id of one of the branches");
        if (root.has("pagePayload")) {
            const Node payload = root.field("pagePayload", "an object");
            payload.object();
            s.pagePayload = payload.value().dump();
        }
        return s;
    }

private:
    TokenId tokenId(const Node& n) const { return static_cast<TokenId>(n.integer(0, vocab_ - 1)); }

    // A token the replay shows: in the vocabulary and in the token table.
    TokenId shownToken(const Node& n) const {
        const TokenId id = tokenId(n);
        if (!std::binary_search(tableIds_.begin(), tableIds_.end(), id))
            n.failSentence("is token " + std::to_string(id) + ", which has no entry in \"tokens\" (a replay could not label it)");
        return id;
    }

    void readTokens(const Node& list, SavedSession& s) {
        const size_t n = list.array(static_cast<size_t>(vocab_));
        for (size_t i = 0; i < n; ++i) {
            const Node item = list.item(i);
            SavedToken t;
            const Node id = item.field("id", "a token id");
            t.id = tokenId(id);
            if (!tableIds_.empty() && t.id <= tableIds_.back())
                id.failSentence("is " + std::to_string(t.id) + ", not above the entry before it (the table lists each id once, ascending)");
            t.piece = item.field("bytes", "the token's bytes as hex").hexBytes(kMaxTokenBytes);
            t.rendered = item.has("rendered") ? item.field("rendered", "").hexBytes(kMaxTokenBytes) : t.piece;
            t.control = item.has("control") && item.field("control", "").boolean();
            t.endOfGeneration = item.has("endOfGeneration") && item.field("endOfGeneration", "").boolean();
            tableIds_.push_back(t.id);
            s.tokens.push_back(std::move(t));
        }
    }

    SamplerParams readSampler(const Node& o) const {
        o.object();
        const Node specNode = o.field("spec", "a sample spec such as \"sample:t=0.7\"");
        const std::string text = specNode.string(4096);
        RunSpec spec;
        try {
            spec = parseRunSpec(text);
        } catch (const Error& e) {
            specNode.failSentence("is not a sampler setting this app reads: " + std::string(e.what()));
        }
        if (spec.kind != RunKind::Sample) specNode.fail("a sample spec such as \"sample:t=0.7\"");
        SamplerParams p = spec.sampler;
        if (o.has("logitBias")) {
            const Node list = o.field("logitBias", "");
            const size_t n = list.array(kMaxList);
            for (size_t i = 0; i < n; ++i) {
                const Node item = list.item(i);
                const TokenId id = tokenId(item.field("id", "a token id"));
                p.logitBias.emplace_back(id, item.field("bias", "a number or null for -infinity").floatOrNegInf());
            }
        }
        if (o.has("dryBreakers")) {
            const Node list = o.field("dryBreakers", "");
            const size_t n = list.array(kMaxList);
            for (size_t i = 0; i < n; ++i) {
                const Node seq = list.item(i);
                const size_t m = seq.array(1024);
                if (m == 0) seq.fail("an array of at least one token id");
                std::vector<TokenId> ids;
                for (size_t j = 0; j < m; ++j) ids.push_back(tokenId(seq.item(j)));
                p.dryBreakers.push_back(std::move(ids));
            }
        }
        try {
            p.validate();
        } catch (const Error& e) {
            o.failSentence("holds settings that are not valid: " + std::string(e.what()));
        }
        return p;
    }

    void readBranches(const Node& list, SavedSession& s) {
        const size_t n = list.array(static_cast<size_t>(kMaxSessionSteps));
        if (n == 0) list.fail("an array of at least one branch");
        int64_t total = 0;
        for (size_t i = 0; i < n; ++i) {
            const Node item = list.item(i);
            SavedBranch b;
            const Node id = item.field("id", "a branch id");
            b.id = static_cast<int>(id.integer(0, std::numeric_limits<int>::max()));
            if (s.branch(b.id)) id.failSentence("is " + std::to_string(b.id) + ", the id of an earlier branch too (each branch has its own)");
            const Node parent = item.field("parent", "-1 or the id of an earlier branch");
            b.parent = static_cast<int>(parent.integer(-1, std::numeric_limits<int>::max()));
            const SavedBranch* from = b.parent < 0 ? nullptr : s.branch(b.parent);
            if (b.parent >= 0 && !from) parent.failSentence("is " + std::to_string(b.parent) + ", which is not the id of an earlier branch");
            const Node fork = item.field("forkStep", "-1 or the step the branch replaced");
            if (!from) {
                b.forkStep = static_cast<int>(fork.integer(-1, -1));
            } else {
                if (from->steps.empty()) parent.failSentence("is a branch without steps; nothing can branch from it");
                b.forkStep = static_cast<int>(fork.integer(0, static_cast<int64_t>(from->steps.size()) - 1));
            }
            const Node steps = item.field("steps", "an array of steps");
            const size_t m = steps.array(static_cast<size_t>(kMaxSessionSteps));
            total += static_cast<int64_t>(m);
            if (total > kMaxSessionSteps)
                steps.failSentence("takes the session past " + std::to_string(kMaxSessionSteps) + " steps, more than a session file may hold");
            if (from && m <= static_cast<size_t>(b.forkStep))
                steps.fail("an array of more than forkStep (" + std::to_string(b.forkStep) + ") steps: the branch holds the step it replaced");
            for (size_t j = 0; j < m; ++j) b.steps.push_back(readStep(steps.item(j), static_cast<int>(j)));
            s.branches.push_back(std::move(b));
        }
    }

    std::vector<Candidate> readCandidates(const Node& list) const {
        const size_t n = list.array(kMaxList);
        std::vector<Candidate> out;
        out.reserve(n);
        for (size_t i = 0; i < n; ++i) {
            const Node c = list.item(i);
            Candidate cand{};
            cand.id = shownToken(c.field("id", "a token id"));
            cand.logit = c.field("logit", "a number or null for -infinity").floatOrNegInf();
            cand.p = c.field("p", "a number between 0 and 1").floatIn(0.0f, 1.0f);
            out.push_back(cand);
        }
        return out;
    }

    StepAttention readAttention(const Node& o) const {
        o.object();
        StepAttention a;
        a.nLayer = o.field("layers", "a whole number").integer(1, 4096);
        a.nHeadKv = o.field("kvHeads", "a whole number").integer(1, 4096);
        a.nSlots = o.field("slots", "a whole number").integer(1, kMaxAttention);
        if (a.nLayer * a.nHeadKv * a.nSlots > kMaxAttention)
            o.failSentence("holds more than " + std::to_string(kMaxAttention) + " attention weights (layers x kvHeads x slots)");
        const Node layers = o.field("perKvGroup", "an array [layer][kv head][slot] of weights");
        if (layers.array(static_cast<size_t>(a.nLayer)) != static_cast<size_t>(a.nLayer))
            layers.fail("an array of " + std::to_string(a.nLayer) + " layers (\"layers\")");
        a.perKvGroup.reserve(static_cast<size_t>(a.nLayer * a.nHeadKv * a.nSlots));
        for (int64_t l = 0; l < a.nLayer; ++l) {
            const Node heads = layers.item(static_cast<size_t>(l));
            if (heads.array(static_cast<size_t>(a.nHeadKv)) != static_cast<size_t>(a.nHeadKv))
                heads.fail("an array of " + std::to_string(a.nHeadKv) + " KV heads (\"kvHeads\")");
            for (int64_t h = 0; h < a.nHeadKv; ++h) {
                const Node row = heads.item(static_cast<size_t>(h));
                if (row.array(static_cast<size_t>(a.nSlots)) != static_cast<size_t>(a.nSlots))
                    row.fail("an array of " + std::to_string(a.nSlots) + " weights (\"slots\")");
                for (int64_t k = 0; k < a.nSlots; ++k) a.perKvGroup.push_back(row.item(static_cast<size_t>(k)).floatIn(0.0f, 1.0f));
            }
        }
        const Node blocks = o.field("blocks", "an array of blocks");
        const size_t nb = blocks.array(kMaxList);
        for (size_t i = 0; i < nb; ++i) {
            const Node b = blocks.item(i);
            StepAttention::Block block;
            block.block = static_cast<int32_t>(b.field("block", "a block index").integer(0, std::numeric_limits<int32_t>::max()));
            block.filled = b.field("filled", "a whole number").integer(0, kMaxCount);
            const Node seqs = b.field("sequences", "an array of sequence ids");
            const size_t ns = seqs.array(4096);
            for (size_t j = 0; j < ns; ++j)
                block.sequences.push_back(static_cast<int32_t>(seqs.item(j).integer(0, std::numeric_limits<int32_t>::max())));
            a.blocks.push_back(std::move(block));
        }
        return a;
    }

    SavedStep readStep(const Node& o, int index) const {
        o.object();
        SavedStep s;
        StepTrace& t = s.trace;
        const Node step = o.field("step", "the step's number");
        t.step = static_cast<int>(step.integer(0, kMaxSessionSteps));
        if (t.step != index) step.fail(std::to_string(index) + " (a branch lists its steps in order, from 0)");
        t.seq = static_cast<int>(o.field("seq", "a sequence id").integer(0, std::numeric_limits<int>::max()));
        t.pos = o.field("pos", "a position").integer(0, kMaxCount);
        const Node phase = o.field("phase", "\"prefill\" or \"decode\"");
        if (!phase.value().is_string()) phase.fail("\"prefill\" or \"decode\"");
        const std::string& ph = phase.value().get_ref<const std::string&>();
        if (ph == "prefill") t.phase = Phase::Prefill;
        else if (ph == "decode") t.phase = Phase::Decode;
        else phase.fail("\"prefill\" or \"decode\"");
        t.evaluated = static_cast<int>(o.field("evaluated", "a token count").integer(0, std::numeric_limits<int>::max()));
        t.chosen = shownToken(o.field("chosen", "a token id"));
        t.text = o.field("bytes", "the chosen token's bytes as hex").hexBytes(kMaxTokenBytes);
        t.chosenProbability = o.field("p", "a number between 0 and 1").floatIn(0.0f, 1.0f);

        const Node raw = o.field("raw", "an object with vocab, finite, maxLogit, logSumExp and entropy");
        const Node rawVocab = raw.field("vocab", "the model's vocabulary size");
        t.raw.vocab = static_cast<int>(rawVocab.integer(vocab_, vocab_));
        t.raw.finite = static_cast<int>(raw.field("finite", "a token count").integer(1, vocab_));
        t.raw.maxLogit = raw.field("maxLogit", "a number").floatNumber();
        t.raw.logSumExp = raw.field("logSumExp", "a number").number();
        t.raw.entropy = raw.field("entropy", "a number").floatIn(0.0f, 64.0f);

        const Node stages = o.field("stages", "an array of stage snapshots");
        const size_t ns = stages.array(kMaxStages);
        for (size_t i = 0; i < ns; ++i) {
            const Node st = stages.item(i);
            StageSnapshot snap;
            snap.stage = st.field("stage", "a stage name").string(64);
            snap.kept = static_cast<int>(st.field("kept", "a token count").integer(0, vocab_));
            snap.massKept = st.field("massKept", "a number between 0 and 1").floatIn(0.0f, 1.0f);
            if (st.has("inputMassKept"))  // absent in sessions saved before it was recorded
                snap.inputMassKept = st.field("inputMassKept", "a number between 0 and 1").floatIn(0.0f, 1.0f);
            snap.entropy = st.field("entropy", "a number").floatIn(0.0f, 64.0f);
            snap.changed = st.field("changed", "true or false").boolean();
            snap.top = readCandidates(st.field("top", "an array of candidates"));
            if (st.has("forbiddenCount")) {
                snap.forbiddenCount = static_cast<int>(st.field("forbiddenCount", "a token count").integer(0, vocab_));
                snap.forbidden = readCandidates(st.field("forbidden", "an array of candidates"));
            }
            t.stages.push_back(std::move(snap));
        }

        const Node kv = o.field("kv", "an object with the KV cache's figures");
        t.kv.positions = kv.field("positions", "a whole number").integer(0, kMaxCount);
        t.kv.blocksUsed = kv.field("blocksUsed", "a whole number").integer(0, kMaxCount);
        t.kv.blocksFree = kv.field("blocksFree", "a whole number").integer(0, kMaxCount);
        t.kv.blocksShared = kv.field("blocksShared", "a whole number").integer(0, kMaxCount);
        t.kv.bytesInUse = kv.field("bytesInUse", "a whole number").integer(0, kMaxCount);
        t.kv.bytesSaved = kv.field("bytesSaved", "a whole number").integer(0, kMaxCount);
        if (o.has("attention")) t.attention = readAttention(o.field("attention", ""));
        t.forwardMs = o.field("forwardMs", "a number of milliseconds").numberAtLeast(0.0);
        t.sampleMs = o.field("sampleMs", "a number of milliseconds").numberAtLeast(0.0);

        s.sampler = readSampler(o.field("sampler", "an object with the settings the step was drawn with"));
        if (o.has("constraint")) {
            const Node c = o.field("constraint", "");
            ConstraintSpec spec;
            const Node kind = c.field("kind", "gbnf, json-schema, json or json-object");
            try {
                spec.kind = constraintKindFromName(kind.string(32));
            } catch (const Error&) {
                kind.fail("gbnf, json-schema, json or json-object");
            }
            spec.source = c.field("source", "the grammar's name").string(4096);
            spec.text = c.field("text", "the grammar's text").string(16u << 20);
            s.constraint = std::move(spec);
        }
        const Node rawLogits = o.field("rawLogits", "an array of raw logits");
        const size_t nr = rawLogits.array(kMaxList);
        std::set<TokenId> seen;
        for (size_t i = 0; i < nr; ++i) {
            const Node r = rawLogits.item(i);
            const Node id = r.field("id", "a token id");
            TokenLogit tl;
            tl.id = shownToken(id);
            if (!seen.insert(tl.id).second) id.failSentence("is token " + std::to_string(tl.id) + " again (each raw logit is listed once)");
            tl.logit = r.field("logit", "a number or null for -infinity").floatOrNegInf();
            s.rawLogits.push_back(tl);
        }
        s.forced = o.has("forced") && o.field("forced", "").boolean();
        return s;
    }

    const std::string& source_;
    int64_t vocab_ = 0;
    std::vector<TokenId> tableIds_;   // ascending
};

}  // namespace

SavedSession parseSessionJson(std::string_view text, const std::string& sourceName) {
    if (static_cast<int64_t>(text.size()) > kMaxSessionFileBytes)
        throw Error(sourceName + ": " + std::to_string(text.size() >> 20) + " MB is more than a session file may hold (" +
                    std::to_string(kMaxSessionFileBytes >> 20) + " MB)");
    checkDepth(text, sourceName);
    Json doc;
    try {
        doc = Json::parse(text);
    } catch (const Json::parse_error& e) {
        // One sentence with the place, not the parser's own words ("syntax error while parsing
        // value - invalid literal; last read: 'th'").
        const size_t upTo = std::min<size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        size_t line = 1, column = 1;
        for (size_t i = 0; i < upTo; ++i) {
            if (text[i] == '\n') ++line, column = 1;
            else ++column;
        }
        throw Error(sourceName + (upTo >= text.size() ? ": not a complete JSON document: it ends too early, at line "
                                                      : ": not a complete JSON document: it stops being JSON at line ") +
                    std::to_string(line) + ", column " + std::to_string(column) + " (the file is damaged, or not a session file)");
    } catch (const Json::exception&) {
        // out_of_range: a number no double holds ("1e400").
        throw Error(sourceName + ": not a complete JSON document: a number in it is too large for any value of a session file");
    }
    return Reader(sourceName).read(doc);
}

}  // namespace dlab
