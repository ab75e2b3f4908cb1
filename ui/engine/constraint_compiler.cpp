#include "ui/engine/constraint_compiler.h"

#include <QCoreApplication>

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
    // The engine's describe() is English; the page says the same in the user's language.
    const QString source = QString::fromStdString(c.spec().source);
    switch (c.spec().kind) {
        case ConstraintSpec::Kind::Gbnf:
            status.description = QCoreApplication::translate("ConstraintCompiler", "GBNF grammar %1").arg(source);
            break;
        case ConstraintSpec::Kind::JsonSchema:
            status.description = QCoreApplication::translate("ConstraintCompiler", "JSON Schema %1").arg(source);
            break;
        case ConstraintSpec::Kind::AnyJson:
            status.description = QCoreApplication::translate("ConstraintCompiler", "Any JSON value");
            break;
        case ConstraintSpec::Kind::JsonObject:
            status.description = QCoreApplication::translate("ConstraintCompiler", "Any JSON object");
            break;
    }
    status.gbnf = QString::fromStdString(c.gbnf());
    int rules = 0;
    for (const auto& r : c.grammar().rules) rules += r.helper ? 0 : 1;
    status.rules = rules;
    status.compileMs = c.compileMs();
}

}  // namespace dlab::ui
