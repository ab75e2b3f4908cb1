#include "ui/engine/constraint_compiler.h"

#include "grammar/constraint.h"
#include "model/model.h"
#include "tokenizer/token_bytes.h"

namespace dlab::ui {

ConstraintCompiler::ConstraintCompiler() {
    // Queued signals and slots carry these between the GUI and the engine thread.
    qRegisterMetaType<ConstraintChoice>();
    qRegisterMetaType<ConstraintStatus>();
}

ConstraintCompiler::~ConstraintCompiler() = default;

std::shared_ptr<const Constraint> ConstraintCompiler::compile(const Model& model, const ConstraintChoice& choice) {
    if (!choice.on) return nullptr;
    if (last_ && choice.spec == lastSpec_) return last_;
    if (!vocab_) vocab_ = std::make_shared<TokenBytesTable>(model.tokenizer());
    last_.reset();
    auto c = Constraint::compile(choice.spec, vocab_);
    lastSpec_ = choice.spec;
    last_ = c;
    return c;
}

void ConstraintCompiler::reset() {
    vocab_.reset();
    last_.reset();
    lastSpec_ = {};
}

void describeConstraint(const Constraint& c, ConstraintStatus& status) {
    status.description = QString::fromStdString(c.describe());
    status.gbnf = QString::fromStdString(c.gbnf());
    int rules = 0;
    for (const auto& r : c.grammar().rules) rules += r.helper ? 0 : 1;
    status.rules = rules;
    status.compileMs = c.compileMs();
}

}  // namespace dlab::ui
