#pragma once
// Text <-> token ids, driven entirely by a GGUF file's tokenizer.* metadata.
//   tokenizer.ggml.model "gpt2"  -> byte-level BPE, pre-tokenizer from tokenizer.ggml.pre
//   tokenizer.ggml.model "llama" -> SentencePiece-style BPE over scores, with byte fallback
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dlab {

class GgufFile;
using TokenId = int32_t;

// A token's kind, as tokenizer.ggml.token_type numbers them (after llama.cpp's fix-ups: tokens
// such as "<|im_end|>" count as Control even where the file says Normal).
enum class TokenType { Undefined = 0, Normal = 1, Unknown = 2, Control = 3, UserDefined = 4, Unused = 5, Byte = 6 };

class Tokenizer {
public:
    virtual ~Tokenizer() = default;

    // Builds the tokenizer the file's metadata describes; throws dlab::Error naming the file
    // and the missing or unsupported key.
    static std::unique_ptr<Tokenizer> fromGguf(const GgufFile& file);

    // addBos: prepend BOS (callers pass addsBosByDefault() unless the user overrides).
    // parseSpecial: text such as "<|im_start|>" becomes its special token instead of plain text.
    // Throws dlab::Error if text is not valid UTF-8.
    virtual std::vector<TokenId> encode(std::string_view text, bool addBos, bool parseSpecial) const = 0;

    // The bytes a token stands for in output (byte tokens decoded, SentencePiece's ▁ as space).
    // Control tokens give their text only when renderSpecial is true.
    virtual std::string tokenToPiece(TokenId id, bool renderSpecial = false) const = 0;
    // Concatenated pieces; may contain incomplete UTF-8 only if the ids end mid-character.
    std::string decode(const std::vector<TokenId>& ids, bool renderSpecial = false) const;

    virtual int vocabSize() const = 0;
    // The stored token string (as in tokenizer.ggml.tokens).
    virtual const std::string& tokenString(TokenId id) const = 0;
    virtual TokenId bos() const = 0;     // -1 if none
    virtual TokenId eos() const = 0;     // -1 if none
    virtual bool isEndOfGeneration(TokenId id) const = 0;  // eos, eot, <|im_end|>, <|eot_id|>, ...
    virtual bool addsBosByDefault() const = 0;
    virtual std::string modelName() const = 0;   // "gpt2" / "llama"
    virtual std::string preName() const = 0;     // tokenizer.ggml.pre or "default"

    // Additions (with defaults, so small test doubles need not implement them):
    virtual TokenId unk() const { return -1; }   // -1 if none
    virtual TokenId eot() const { return -1; }   // end of turn (<|im_end|>, <|eot_id|>, ...), -1 if none
    virtual TokenType tokenType(TokenId /*id*/) const { return TokenType::Normal; }
};

// Turns a stream of token ids into text without ever emitting half a UTF-8 character:
// bytes of an unfinished character are held back until the character completes.
class StreamingDetokenizer {
public:
    explicit StreamingDetokenizer(const Tokenizer& tok, bool renderSpecial = false);
    std::string push(TokenId id);   // complete characters now available
    std::string flush();            // whatever is left (invalid tails become U+FFFD)
private:
    const Tokenizer& tok_;
    bool renderSpecial_;
    std::string pending_;
};

}  // namespace dlab
