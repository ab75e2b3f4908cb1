// Run specs (run_spec.h): every key of every kind parses into its field; runSpecText writes only
// the keys that differ from the kind's defaults and parseRunSpec reads it back to the same fields
// (over many specs); every bad value is one sentence naming the spec and the key.
#include <QTest>

#include "core/error.h"
#include "generate/run_spec.h"

using namespace dlab;

namespace {

// Every field a spec can set, as text, for comparisons that show what differs.
QString fields(const RunSpec& r) {
    const SamplerParams& s = r.sampler;
    return QString("%1 t=%2 k=%3 p=%4 minp=%5 typ=%6 rep=%7 freq=%8 pres=%9 lastn=%10 nrng=%11 dry=%12 drybase=%13 "
                   "dryallow=%14 drylastn=%15 xtcp=%16 xtct=%17 nsigma=%18 mirotau=%19 miroeta=%20 mirom=%21 order=%22 "
                   "seed=%23 | k=%24 lp=%25 es=%26 g=%27 dp=%28 rep=%29 nrng=%30")
        .arg(runKindName(r.kind))
        .arg(double(s.temperature), 0, 'g', 9).arg(s.topK).arg(double(s.topP), 0, 'g', 9).arg(double(s.minP), 0, 'g', 9)
        .arg(double(s.typicalP), 0, 'g', 9).arg(double(s.repeatPenalty), 0, 'g', 9).arg(double(s.frequencyPenalty), 0, 'g', 9)
        .arg(double(s.presencePenalty), 0, 'g', 9).arg(s.penaltyLastN).arg(s.noRepeatNgram)
        .arg(double(s.dryMultiplier), 0, 'g', 9).arg(double(s.dryBase), 0, 'g', 9).arg(s.dryAllowedLength)
        .arg(s.dryPenaltyLastN).arg(double(s.xtcProbability), 0, 'g', 9).arg(double(s.xtcThreshold), 0, 'g', 9)
        .arg(double(s.topNSigma), 0, 'g', 9).arg(double(s.mirostatTau), 0, 'g', 9).arg(double(s.mirostatEta), 0, 'g', 9)
        .arg(s.mirostatM).arg(QString::fromStdString(s.order)).arg(qulonglong(s.seed))
        .arg(r.beamWidth).arg(r.lengthPenalty, 0, 'g', 17).arg(earlyStoppingName(r.earlyStopping)).arg(r.beamGroups)
        .arg(r.diversityPenalty, 0, 'g', 17).arg(double(r.beamRepeatPenalty), 0, 'g', 9).arg(r.beamNoRepeatNgram);
}

}  // namespace

class TestRunSpec : public QObject {
    Q_OBJECT
private slots:
    void everyKeySetsItsField() {
        const RunSpec s = parseRunSpec(
            "sample:t=0.7,k=12,p=0.9,minp=0.05,typ=0.8,rep=1.2,freq=0.5,pres=-0.25,lastn=-1,nrng=3,dry=0.8,drybase=2,"
            "dryallow=3,drylastn=128,xtcp=0.5,xtct=0.2,nsigma=1.5,mirotau=5,miroeta=0.2,mirom=50,"
            "order=penalties+dry+top-n-sigma+top-k+typical+top-p+min-p+xtc+temperature+mirostat-v1,seed=9");
        QCOMPARE(s.kind, RunKind::Sample);
        const SamplerParams& p = s.sampler;
        QCOMPARE(p.temperature, 0.7f);
        QCOMPARE(p.topK, 12);
        QCOMPARE(p.topP, 0.9f);
        QCOMPARE(p.minP, 0.05f);
        QCOMPARE(p.typicalP, 0.8f);
        QCOMPARE(p.repeatPenalty, 1.2f);
        QCOMPARE(p.frequencyPenalty, 0.5f);
        QCOMPARE(p.presencePenalty, -0.25f);
        QCOMPARE(p.penaltyLastN, -1);
        QCOMPARE(p.noRepeatNgram, 3);
        QCOMPARE(p.dryMultiplier, 0.8f);
        QCOMPARE(p.dryBase, 2.0f);
        QCOMPARE(p.dryAllowedLength, 3);
        QCOMPARE(p.dryPenaltyLastN, 128);
        QCOMPARE(p.xtcProbability, 0.5f);
        QCOMPARE(p.xtcThreshold, 0.2f);
        QCOMPARE(p.topNSigma, 1.5f);
        QCOMPARE(p.mirostatTau, 5.0f);
        QCOMPARE(p.mirostatEta, 0.2f);
        QCOMPARE(p.mirostatM, 50);
        QCOMPARE(p.order, std::string("penalties,dry,top-n-sigma,top-k,typical,top-p,min-p,xtc,temperature,mirostat-v1"));
        QCOMPARE(p.seed, uint64_t(9));

        const RunSpec b = parseRunSpec("beam:k=6,lp=0.5,es=never,g=3,dp=0.75,rep=1.5,nrng=2");
        QCOMPARE(b.beamWidth, 6);
        QCOMPARE(b.lengthPenalty, 0.5);
        QCOMPARE(b.earlyStopping, EarlyStopping::Never);
        QCOMPARE(b.beamGroups, 3);
        QCOMPARE(b.diversityPenalty, 0.75);
        QCOMPARE(b.beamRepeatPenalty, 1.5f);
        QCOMPARE(b.beamNoRepeatNgram, 2);
        const BeamOptions o = beamOptionsOf(b);
        QCOMPARE(o.width, 6);
        QCOMPARE(o.groups, 3);
        QCOMPARE(o.diversityPenalty, 0.75);
        QCOMPARE(o.repeatPenalty, 1.5f);
        QCOMPARE(o.noRepeatNgram, 2);
        QCOMPARE(o.earlyStopping, EarlyStopping::Never);

        const RunSpec g = parseRunSpec("greedy:rep=1.3,freq=0.1,pres=0.2,lastn=32,nrng=4");
        QCOMPARE(g.sampler.temperature, 0.0f);
        QCOMPARE(g.sampler.repeatPenalty, 1.3f);
        QCOMPARE(g.sampler.penaltyLastN, 32);
        QCOMPARE(g.sampler.noRepeatNgram, 4);

        // A custom order joins stage names with '+' (commas separate settings).
        QCOMPARE(parseRunSpec("sample:order=top-k+temperature").sampler.order, std::string("top-k,temperature"));
    }

    void roundTrip_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("greedy") << "greedy" << "greedy";
        QTest::newRow("greedy penalties") << "greedy:nrng=3,rep=1.3" << "greedy:rep=1.3,nrng=3";
        QTest::newRow("greedy all") << "greedy:lastn=-1,pres=0.5,freq=-0.5,rep=0.9,nrng=2" << "greedy:rep=0.9,freq=-0.5,pres=0.5,lastn=-1,nrng=2";
        QTest::newRow("greedy default given") << "greedy:rep=1,lastn=64" << "greedy";
        QTest::newRow("beam") << "beam" << "beam";
        QTest::newRow("beam k4") << "beam:k=4" << "beam";
        QTest::newRow("beam groups") << "beam:dp=0.5,g=2,k=4" << "beam:g=2,dp=0.5";
        QTest::newRow("beam all") << "beam:k=8,lp=-0.5,es=true,g=4,dp=1.25,rep=1.1,nrng=3" << "beam:k=8,lp=-0.5,es=true,g=4,dp=1.25,rep=1.1,nrng=3";
        QTest::newRow("beam never") << "beam:es=never,k=3" << "beam:k=3,es=never";
        QTest::newRow("beam es default") << "beam:es=false" << "beam";
        QTest::newRow("sample") << "sample" << "sample";
        QTest::newRow("sample classic") << "sample:t=0.7,p=0.9,seed=1" << "sample:t=0.7,p=0.9,seed=1";
        QTest::newRow("sample reordered") << "sample:seed=7,minp=0.05,k=0,t=1.5" << "sample:t=1.5,k=0,minp=0.05,seed=7";
        QTest::newRow("sample typical") << "sample:typ=0.95,order=llama.cpp" << "sample:typ=0.95,order=llama.cpp";
        QTest::newRow("sample dry") << "sample:dry=0.8,drybase=1.5,dryallow=4,drylastn=256,order=llama.cpp" << "sample:dry=0.8,drybase=1.5,dryallow=4,drylastn=256,order=llama.cpp";
        QTest::newRow("sample xtc") << "sample:xtcp=0.5,xtct=0.15,order=llama.cpp,seed=3" << "sample:xtcp=0.5,xtct=0.15,order=llama.cpp,seed=3";
        QTest::newRow("sample nsigma") << "sample:nsigma=1,order=llama.cpp" << "sample:nsigma=1,order=llama.cpp";
        QTest::newRow("sample mirostat") << "sample:mirotau=5,miroeta=0.2,order=mirostat" << "sample:mirotau=5,miroeta=0.2,order=mirostat";
        QTest::newRow("sample mirostat 1") << "sample:mirotau=3,mirom=20,order=mirostat-v1" << "sample:mirotau=3,mirom=20,order=mirostat-v1";
        QTest::newRow("sample custom order") << "sample:order=penalties+top-k+temperature,k=5" << "sample:k=5,order=penalties+top-k+temperature";
        QTest::newRow("sample penalties") << "sample:rep=1.1,freq=0.2,pres=0.3,lastn=16,nrng=3" << "sample:rep=1.1,freq=0.2,pres=0.3,lastn=16,nrng=3";
        QTest::newRow("sample odd floats") << "sample:t=0.1234567,p=0.3333333" << "sample:t=0.1234567,p=0.3333333";
        QTest::newRow("sample big seed") << "sample:seed=4611686018427387904" << "sample:seed=4611686018427387904";
        QTest::newRow("sample defaults given") << "sample:t=0.8,k=40,p=0.95" << "sample";
        QTest::newRow("sample exponent") << "sample:t=1e-3" << "sample:t=0.001";
    }
    void roundTrip() {
        QFETCH(QString, spec);
        QFETCH(QString, canonical);
        const RunSpec a = parseRunSpec(spec.toStdString());
        const std::string text = runSpecText(a);
        QCOMPARE(QString::fromStdString(text), canonical);
        const RunSpec b = parseRunSpec(text);
        QCOMPARE(fields(b), fields(a));
        QCOMPARE(runSpecText(b), text);
    }

    // Many generated specs: every combination of a few values per key, kind by kind.
    void roundTripMany() {
        const std::vector<std::pair<std::string, std::vector<std::string>>> sampleKeys = {
            {"t", {"0", "0.7", "1.25"}}, {"k", {"0", "7"}}, {"p", {"0.9", "1"}}, {"minp", {"0.02"}}, {"rep", {"1.15"}},
            {"freq", {"-0.3"}}, {"pres", {"0.4"}}, {"lastn", {"-1", "0", "8"}}, {"nrng", {"2"}}, {"seed", {"0", "12345"}}};
        int checked = 0;
        for (size_t mask = 0; mask < (1u << sampleKeys.size()); mask += 7) {
            for (size_t variant = 0; variant < 3; ++variant) {
                std::string spec = "sample";
                char sep = ':';
                for (size_t i = 0; i < sampleKeys.size(); ++i) {
                    if (!(mask & (1u << i))) continue;
                    const auto& values = sampleKeys[i].second;
                    spec += sep + sampleKeys[i].first + "=" + values[variant % values.size()];
                    sep = ',';
                }
                const RunSpec a = parseRunSpec(spec);
                const RunSpec b = parseRunSpec(runSpecText(a));
                QVERIFY2(fields(a) == fields(b), spec.c_str());
                ++checked;
            }
        }
        for (int k : {1, 2, 4, 6, 12})
            for (int g : {1, 2, 3})
                for (const char* dp : {"0", "0.5", "2"})
                    for (const char* lp : {"1", "0", "-1.5"}) {
                        if (k % g != 0 || (g == 1 && std::string(dp) != "0")) continue;
                        const std::string spec = "beam:k=" + std::to_string(k) + ",g=" + std::to_string(g) + ",dp=" + dp + ",lp=" + lp;
                        const RunSpec a = parseRunSpec(spec);
                        QVERIFY2(fields(a) == fields(parseRunSpec(runSpecText(a))), spec.c_str());
                        ++checked;
                    }
        QVERIFY(checked > 100);
    }

    void errorsNameSpecAndKey_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("expected");
        QTest::newRow("groups not dividing") << "beam:k=4,g=3" << "the beam width 4 is not divisible by the 3 beam groups";
        QTest::newRow("groups zero") << "beam:g=0" << "g must be between 1 and 64; got 0";
        QTest::newRow("groups words") << "beam:g=two" << "g must be a whole number; got 'two'";
        QTest::newRow("dp negative") << "beam:g=2,dp=-1" << "the diversity penalty must be 0 (off) or a positive number";
        QTest::newRow("dp words") << "beam:dp=lots" << "dp must be a number; got 'lots'";
        QTest::newRow("dp one group") << "beam:dp=0.5" << "a diversity penalty needs at least 2 beam groups";
        QTest::newRow("beam rep zero") << "beam:rep=0" << "the beam repetition penalty must be greater than 0";
        QTest::newRow("beam nrng negative") << "beam:nrng=-2" << "nrng must be between 0 and";
        QTest::newRow("greedy temperature") << "greedy:t=0.5" << "unknown key 't' for greedy; its keys are freq, grammar, lastn, nrng, pres, rep";
        QTest::newRow("greedy rep zero") << "greedy:rep=0" << "--repeat-penalty must be greater than 0";
        QTest::newRow("freq too big") << "sample:freq=3" << "--frequency-penalty must be between -2 and 2";
        QTest::newRow("pres words") << "sample:pres=x" << "pres must be a number; got 'x'";
        QTest::newRow("lastn below -1") << "sample:lastn=-2" << "lastn must be between -1 and";
        QTest::newRow("typical zero") << "sample:typ=0,order=llama.cpp" << "--typical-p must be greater than 0";
        QTest::newRow("typical without its stage") << "sample:typ=0.9" << "--typical-p is set but the sampler order 'hf' has no typical stage";
        QTest::newRow("dry negative") << "sample:dry=-1,order=llama.cpp" << "--dry-multiplier must be 0 (off) or a positive number";
        QTest::newRow("drybase below 1") << "sample:drybase=0.5" << "--dry-base must be at least 1";
        QTest::newRow("dryallow negative") << "sample:dryallow=-1" << "dryallow must be between 0 and";
        QTest::newRow("xtcp above 1") << "sample:xtcp=2,order=llama.cpp" << "--xtc-probability must be between 0 and 1";
        QTest::newRow("xtct zero") << "sample:xtct=0" << "--xtc-threshold must be greater than 0";
        QTest::newRow("nsigma negative") << "sample:nsigma=-1" << "--top-n-sigma must be between 0 and 100";
        QTest::newRow("mirotau without order") << "sample:mirotau=5" << "--mirostat-tau is set but the sampler order 'hf' has no mirostat stage";
        QTest::newRow("miroeta zero") << "sample:miroeta=0" << "--mirostat-eta must be greater than 0";
        QTest::newRow("mirom zero") << "sample:mirom=0" << "mirom must be between 1 and";
        QTest::newRow("order unknown stage") << "sample:order=top-k+warmth" << "--order: unknown sampler stage 'warmth'";
        QTest::newRow("order empty") << "sample:order=" << "order needs a value";
        QTest::newRow("key twice") << "sample:t=0.5,t=0.7" << "the key 't' is given twice";
        QTest::newRow("unknown sample key") << "sample:temperature=1" << "unknown key 'temperature' for sample; its keys are dry, dryallow";
        // (moved from test_compare, where the first spec errors were)
        QTest::newRow("unknown kind") << "nucleus:p=0.9" << "unknown kind 'nucleus'";
        QTest::newRow("empty") << "" << "unknown kind ''";
        QTest::newRow("unknown beam key") << "beam:width=4" << "unknown key 'width' for beam; its keys are dp, es, g, grammar, k, lp, nrng, rep";
        QTest::newRow("unknown sample key (2)") << "sample:temp=0.7" << "unknown key 'temp' for sample";
        QTest::newRow("width zero") << "beam:k=0" << "k must be between 1 and 64; got 0";
        QTest::newRow("width words") << "beam:k=four" << "k must be a whole number; got 'four'";
        QTest::newRow("lp not a number") << "beam:lp=x" << "lp must be a number; got 'x'";
        QTest::newRow("bad early stopping") << "beam:es=maybe" << "early-stopping mode 'maybe'";
        QTest::newRow("temperature words") << "sample:t=hot" << "t must be a number; got 'hot'";
        QTest::newRow("temperature negative") << "sample:t=-1" << "--temperature must be between 0 and 100";
        QTest::newRow("top-p zero") << "sample:p=0" << "--top-p must be greater than 0";
        QTest::newRow("min-p above one") << "sample:minp=2" << "--min-p must be between 0 and 1";
        QTest::newRow("top-k negative") << "sample:k=-3" << "k must be between 0 and";
        QTest::newRow("seed fraction") << "sample:seed=1.5" << "seed must be a whole number";
        QTest::newRow("greedy sampling settings") << "greedy:t=1" << "unknown key 't' for greedy; its keys are freq, grammar, lastn, nrng, pres, rep";
        QTest::newRow("no value") << "sample:t" << "setting 't' needs a value";
        QTest::newRow("empty value") << "sample:t=" << "t must be a number; got ''";
        QTest::newRow("nothing after colon") << "sample:" << "nothing after ':'";
        QTest::newRow("double comma") << "sample:t=0.7,,p=0.9" << "empty setting between commas";
    }
    void errorsNameSpecAndKey() {
        QFETCH(QString, spec);
        QFETCH(QString, expected);
        try {
            parseRunSpec(spec.toStdString());
            QFAIL("no error");
        } catch (const Error& e) {
            const QString msg = QString::fromUtf8(e.what());
            QVERIFY2(msg.startsWith("run '" + spec + "': "), qPrintable(msg));
            QVERIFY2(msg.contains(expected), qPrintable(msg));
            QVERIFY2(!msg.contains('\n'), qPrintable(msg));
        }
    }
};

QTEST_APPLESS_MAIN(TestRunSpec)
#include "test_run_spec.moc"
