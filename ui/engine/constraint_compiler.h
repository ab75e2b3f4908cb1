#pragma once
// Constrained decoding on the engine thread: what a page asks for (ConstraintChoice), what came
// of it (ConstraintStatus, for the page to show), and the compiler a controller keeps. Compiling
// needs the loaded model's vocabulary (every token's bytes, made once per model) and takes
// 10-20 ms, so it runs on the engine thread, never on the GUI's. A controller drops what it
// compiled when the model is replaced and compiles the page's choice again for the next one.
#include <QMetaType>
#include <QString>

#include <memory>

#include "grammar/constraint.h"

namespace dlab {
class Model;
class TokenBytesTable;
}  // namespace dlab

namespace dlab::ui {

// What the page's constraint selector says: off, or a spec (GBNF, a JSON Schema, any JSON value,
// any JSON object) with the text the user sees.
struct ConstraintChoice {
    bool on = false;
    ConstraintSpec spec;
    bool operator==(const ConstraintChoice&) const = default;
};

// The outcome of compiling a choice for the loaded model.
struct ConstraintStatus {
    int request = 0;          // the page's request number it answers
    bool on = false;          // a constraint is in force now
    QString error;            // the engine's one sentence when compiling failed (then on == false)
    QString description;      // Constraint::describe(): "JSON Schema person.json"
    QString gbnf;             // the grammar the spec became (a schema's generated GBNF)
    int rules = 0;            // rules of that grammar as written or generated (helpers not counted)
    double compileMs = 0.0;
    // Whether the playground's current branch, generated so far, is still a valid prefix of the
    // new constraint (always true when it is off or nothing was generated).
    bool fitsSession = true;
};

class ConstraintCompiler {
public:
    ConstraintCompiler();
    ~ConstraintCompiler();

    // The choice compiled for the model's vocabulary (nullptr when the choice is off). The last
    // spec compiled is kept: asking again for it costs nothing. Throws dlab::Error with the
    // engine's sentence (file:line:col for GBNF, the JSON Pointer for a schema).
    std::shared_ptr<const Constraint> compile(const Model& model, const ConstraintChoice& choice);
    // The model is about to be replaced: its vocabulary and everything compiled for it go.
    void reset();

private:
    std::shared_ptr<const TokenBytesTable> vocab_;
    ConstraintSpec lastSpec_;
    std::shared_ptr<const Constraint> last_;
};

// `status` filled in from a compiled constraint (description, grammar, rules, time).
void describeConstraint(const Constraint& c, ConstraintStatus& status);

}  // namespace dlab::ui

Q_DECLARE_METATYPE(dlab::ui::ConstraintChoice)
Q_DECLARE_METATYPE(dlab::ui::ConstraintStatus)
