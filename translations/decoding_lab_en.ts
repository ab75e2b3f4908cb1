<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>dlab::ui::BeamTreePanel</name>
    <message numerus="yes">
        <source>Diverse beams (%n group(s))</source>
        <translation>
            <numerusform>Diverse beams (%Ln group)</numerusform>
            <numerusform>Diverse beams (%Ln groups)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::ChatPage</name>
    <message numerus="yes">
        <source>Generating… %n token(s)</source>
        <translation>
            <numerusform>Generating… %Ln token</numerusform>
            <numerusform>Generating… %Ln tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>TTFT %1 ms · %2 tokens/s · %n token(s) · %3</source>
        <translation>
            <numerusform>TTFT %1 ms · %2 tokens/s · %Ln token · %3</numerusform>
            <numerusform>TTFT %1 ms · %2 tokens/s · %Ln tokens · %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n logit bias(es)</source>
        <translation>
            <numerusform>%Ln logit bias</numerusform>
            <numerusform>%Ln logit biases</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::ComparisonTableModel</name>
    <message numerus="yes">
        <source>yes: %n runs identical</source>
        <translation>
            <numerusform>yes: %Ln run identical</numerusform>
            <numerusform>yes: %Ln runs identical</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>no: the %n runs differ</source>
        <translation>
            <numerusform>no: the %Ln run differs</numerusform>
            <numerusform>no: the %Ln runs differ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Its %n token(s) have log-prob %1; the best %n-token continuation a width-%2 beam found has %3 (end tokens counted as ordinary tokens there)</source>
        <translation>
            <numerusform>Its %Ln token has log-prob %1; the best %Ln-token continuation a width-%2 beam found has %3 (end tokens counted as ordinary tokens there)</numerusform>
            <numerusform>Its %Ln tokens have log-prob %1; the best %Ln-token continuation a width-%2 beam found has %3 (end tokens counted as ordinary tokens there)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Re-run with %n seed(s): mean bigram overlap %1 (shared word pairs between two runs: 0 = none, 1 = the same), mean shared start %2 tokens, distinct-2 of all runs together %3 (different word pairs / all word pairs)</source>
        <translation>
            <numerusform>Re-run with %Ln seed: mean bigram overlap %1 (shared word pairs between two runs: 0 = none, 1 = the same), mean shared start %2 tokens, distinct-2 of all runs together %3 (different word pairs / all word pairs)</numerusform>
            <numerusform>Re-run with %Ln seeds: mean bigram overlap %1 (shared word pairs between two runs: 0 = none, 1 = the same), mean shared start %2 tokens, distinct-2 of all runs together %3 (different word pairs / all word pairs)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 ms per step (%2 tokens/s), %3 tokens evaluated per step in %n forward pass(es).</source>
        <translation>
            <numerusform>%1 ms per step (%2 tokens/s), %3 tokens evaluated per step in %Ln forward pass.</numerusform>
            <numerusform>%1 ms per step (%2 tokens/s), %3 tokens evaluated per step in %Ln forward passes.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 ms per step against greedy&apos;s %2 ms (%3 tokens/s); %4 tokens evaluated per step against greedy&apos;s %5, in %n forward pass(es).</source>
        <translation>
            <numerusform>%1 ms per step against greedy&apos;s %2 ms (%3 tokens/s); %4 tokens evaluated per step against greedy&apos;s %5, in %Ln forward pass.</numerusform>
            <numerusform>%1 ms per step against greedy&apos;s %2 ms (%3 tokens/s); %4 tokens evaluated per step against greedy&apos;s %5, in %Ln forward passes.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::ConstraintBox</name>
    <message numerus="yes">
        <source>%1 in force: %n rule(s), compiled for this model&apos;s vocabulary in %2 ms.</source>
        <translation>
            <numerusform>%1 in force: %Ln rule, compiled for this model&apos;s vocabulary in %2 ms.</numerusform>
            <numerusform>%1 in force: %Ln rules, compiled for this model&apos;s vocabulary in %2 ms.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvBlocksPanel</name>
    <message numerus="yes">
        <source>&lt;b&gt;Contiguous (reserve the whole context)&lt;/b&gt;&lt;br&gt;%1 positions reserved per sequence: %2 for %n sequence(s), of which %3 (%4 %) hold nothing. That is %5× the paged pool&apos;s bytes; paging wastes at most one partly filled block per sequence.</source>
        <translation>
            <numerusform>&lt;b&gt;Contiguous (reserve the whole context)&lt;/b&gt;&lt;br&gt;%1 positions reserved per sequence: %2 for %Ln sequence, of which %3 (%4 %) hold nothing. That is %5× the paged pool&apos;s bytes; paging wastes at most one partly filled block per sequence.</numerusform>
            <numerusform>&lt;b&gt;Contiguous (reserve the whole context)&lt;/b&gt;&lt;br&gt;%1 positions reserved per sequence: %2 for %Ln sequences, of which %3 (%4 %) hold nothing. That is %5× the paged pool&apos;s bytes; paging wastes at most one partly filled block per sequence.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Paged (the pool as it stands)&lt;/b&gt;&lt;br&gt;%n sequence(s), %1 positions in %2 blocks of %3: %4 in use. Unused slots in partly filled blocks: %5 (%6 %). Sharing saved %7: without copy-on-write every sequence would hold its own copy of the shared blocks.</source>
        <translation>
            <numerusform>&lt;b&gt;Paged (the pool as it stands)&lt;/b&gt;&lt;br&gt;%Ln sequence, %1 positions in %2 blocks of %3: %4 in use. Unused slots in partly filled blocks: %5 (%6 %). Sharing saved %7: without copy-on-write every sequence would hold its own copy of the shared blocks.</numerusform>
            <numerusform>&lt;b&gt;Paged (the pool as it stands)&lt;/b&gt;&lt;br&gt;%Ln sequences, %1 positions in %2 blocks of %3: %4 in use. Unused slots in partly filled blocks: %5 (%6 %). Sharing saved %7: without copy-on-write every sequence would hold its own copy of the shared blocks.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvCalculatorPanel</name>
    <message numerus="yes">
        <source>&lt;b&gt;%1 per position&lt;/b&gt; (2 × %2 layers × %3 KV heads × %4 × %5 bytes), &lt;b&gt;%6 per sequence&lt;/b&gt; of %7 positions, &lt;b&gt;%8 for %n sequence(s)&lt;/b&gt;. Weights: %9%10.</source>
        <translation>
            <numerusform>&lt;b&gt;%1 per position&lt;/b&gt; (2 × %2 layers × %3 KV heads × %4 × %5 bytes), &lt;b&gt;%6 per sequence&lt;/b&gt; of %7 positions, &lt;b&gt;%8 for %Ln sequence&lt;/b&gt;. Weights: %9%10.</numerusform>
            <numerusform>&lt;b&gt;%1 per position&lt;/b&gt; (2 × %2 layers × %3 KV heads × %4 × %5 bytes), &lt;b&gt;%6 per sequence&lt;/b&gt; of %7 positions, &lt;b&gt;%8 for %Ln sequences&lt;/b&gt;. Weights: %9%10.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvGrowthPanel</name>
    <message numerus="yes">
        <source>%n step(s); the cache holds %1 positions in %2 MiB. With the cache each decode step computed 1 new K/V row per layer and read the rest back.</source>
        <translation>
            <numerusform>%Ln step; the cache holds %1 positions in %2 MiB. With the cache each decode step computed 1 new K/V row per layer and read the rest back.</numerusform>
            <numerusform>%Ln steps; the cache holds %1 positions in %2 MiB. With the cache each decode step computed 1 new K/V row per layer and read the rest back.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvHeatmapPanel</name>
    <message numerus="yes">
        <source>Attention was recorded at %n step(s) of this run; the slider walks through them.</source>
        <translation>
            <numerusform>Attention was recorded at %Ln step of this run; the slider walks through them.</numerusform>
            <numerusform>Attention was recorded at %Ln steps of this run; the slider walks through them.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvPage</name>
    <message numerus="yes">
        <source>%n sequence(s), %1 positions in sequence 1, measured in %2 ms. It continued: “%3”</source>
        <translation>
            <numerusform>%Ln sequence, %1 positions in sequence 1, measured in %2 ms. It continued: “%3”</numerusform>
            <numerusform>%Ln sequences, %1 positions in sequence 1, measured in %2 ms. It continued: “%3”</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::MainWindow</name>
    <message numerus="yes">
        <source>%n thread(s)</source>
        <translation>
            <numerusform>%Ln thread</numerusform>
            <numerusform>%Ln threads</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>CPU, %n thread(s)</source>
        <translation>
            <numerusform>CPU, %Ln thread</numerusform>
            <numerusform>CPU, %Ln threads</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The backend now uses %n thread(s); the model and the generated text stay.</source>
        <translation>
            <numerusform>The backend now uses %Ln thread; the model and the generated text stay.</numerusform>
            <numerusform>The backend now uses %Ln threads; the model and the generated text stay.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The model runs on the GPU; it will use %n CPU thread(s) when it runs on the CPU.</source>
        <translation>
            <numerusform>The model runs on the GPU; it will use %Ln CPU thread when it runs on the CPU.</numerusform>
            <numerusform>The model runs on the GPU; it will use %Ln CPU threads when it runs on the CPU.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::PlaygroundPage</name>
    <message numerus="yes">
        <source>Step %1 with these settings would choose “%2” (p = %3); %n token(s) kept</source>
        <translation>
            <numerusform>Step %1 with these settings would choose “%2” (p = %3); %Ln token kept</numerusform>
            <numerusform>Step %1 with these settings would choose “%2” (p = %3); %Ln tokens kept</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Step %1 chose “%2” (p = %3); %n token(s) kept after the chain</source>
        <translation>
            <numerusform>Step %1 chose “%2” (p = %3); %Ln token kept after the chain</numerusform>
            <numerusform>Step %1 chose “%2” (p = %3); %Ln tokens kept after the chain</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The prompt is %n token(s) (%1 special); each shows its id. The model sees only these numbers.</source>
        <translation>
            <numerusform>The prompt is %Ln token (%1 special); each shows its id. The model sees only these numbers.</numerusform>
            <numerusform>The prompt is %Ln tokens (%1 special); each shows its id. The model sees only these numbers.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Original (%n token(s))</source>
        <translation>
            <numerusform>Original (%Ln token)</numerusform>
            <numerusform>Original (%Ln tokens)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Branch %1: “%2” at step %3 (%n token(s))</source>
        <translation>
            <numerusform>Branch %1: “%2” at step %3 (%Ln token)</numerusform>
            <numerusform>Branch %1: “%2” at step %3 (%Ln tokens)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Switched to another branch: %n token(s) generated on it. Step or Run continues it.</source>
        <translation>
            <numerusform>Switched to another branch: %Ln token generated on it. Step or Run continues it.</numerusform>
            <numerusform>Switched to another branch: %Ln tokens generated on it. Step or Run continues it.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Step %1 of %2 · KV cache %3 in %n block(s)</source>
        <translation>
            <numerusform>Step %1 of %2 · KV cache %3 in %Ln block</numerusform>
            <numerusform>Step %1 of %2 · KV cache %3 in %Ln blocks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServePage</name>
    <message numerus="yes">
        <source>Stopped after %n request(s): the port is free and the engine is back for the other pages.</source>
        <translation>
            <numerusform>Stopped after %Ln request: the port is free and the engine is back for the other pages.</numerusform>
            <numerusform>Stopped after %Ln requests: the port is free and the engine is back for the other pages.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingLabPage</name>
    <message numerus="yes">
        <source>Stopped after %n batch size(s).</source>
        <translation>
            <numerusform>Stopped after %Ln batch size.</numerusform>
            <numerusform>Stopped after %Ln batch sizes.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n batch size(s) measured.</source>
        <translation>
            <numerusform>%Ln batch size measured.</numerusform>
            <numerusform>%Ln batch sizes measured.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingLoadPanel</name>
    <message numerus="yes">
        <source>The same %n request(s) both ways. Continuous batching: %1 tokens/s, p99 time to first token %2 ms. Static batching: %3 tokens/s, p99 time to first token %4 ms, and %5 padding tokens computed for requests that had already finished.</source>
        <translation>
            <numerusform>The same %Ln request both ways. Continuous batching: %1 tokens/s, p99 time to first token %2 ms. Static batching: %3 tokens/s, p99 time to first token %4 ms, and %5 padding tokens computed for requests that had already finished.</numerusform>
            <numerusform>The same %Ln requests both ways. Continuous batching: %1 tokens/s, p99 time to first token %2 ms. Static batching: %3 tokens/s, p99 time to first token %4 ms, and %5 padding tokens computed for requests that had already finished.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>#%1 (%n token(s))</source>
        <translation>
            <numerusform>#%1 (%Ln token)</numerusform>
            <numerusform>#%1 (%Ln tokens)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingPrefixPanel</name>
    <message numerus="yes">
        <source>%n request(s) with a shared system prompt of %1 tokens: the median time to first token is %2 ms with the prefix cache and %3 ms without; %4&#xa0;% of the prompt tokens came from the cache.</source>
        <translation>
            <numerusform>%Ln request with a shared system prompt of %1 tokens: the median time to first token is %2 ms with the prefix cache and %3 ms without; %4&#xa0;% of the prompt tokens came from the cache.</numerusform>
            <numerusform>%Ln requests with a shared system prompt of %1 tokens: the median time to first token is %2 ms with the prefix cache and %3 ms without; %4&#xa0;% of the prompt tokens came from the cache.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingSafetyPanel</name>
    <message numerus="yes">
        <source>the model wanted %1 (%2); the ban removed %n token(s) holding %3 of the probability</source>
        <translation>
            <numerusform>the model wanted %1 (%2); the ban removed %Ln token holding %3 of the probability</numerusform>
            <numerusform>the model wanted %1 (%2); the ban removed %Ln tokens holding %3 of the probability</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>At %n step(s) the ban removed 1 % or more of the probability:</source>
        <translation>
            <numerusform>At %Ln step the ban removed 1 % or more of the probability:</numerusform>
            <numerusform>At %Ln steps the ban removed 1 % or more of the probability:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>(and %n more)</source>
        <translation>
            <numerusform>(and %Ln more)</numerusform>
            <numerusform>(and %Ln more)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>A stream had already sent %n character(s) of the match.</source>
        <translation>
            <numerusform>A stream had already sent %Ln character of the match.</numerusform>
            <numerusform>A stream had already sent %Ln characters of the match.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) decoded in %1 ms; the user is shown %2 of the %3 characters the model wrote.</source>
        <translation>
            <numerusform>%Ln step decoded in %1 ms; the user is shown %2 of the %3 characters the model wrote.</numerusform>
            <numerusform>%Ln steps decoded in %1 ms; the user is shown %2 of the %3 characters the model wrote.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingStreamingPanel</name>
    <message numerus="yes">
        <source>With streaming, the user of request %1 reads the first text after %2 ms (its time to first token) and then a token every %3 ms on average. Without streaming the screen stays empty for %4 ms, until all %n token(s) are there at once.</source>
        <translation>
            <numerusform>With streaming, the user of request %1 reads the first text after %2 ms (its time to first token) and then a token every %3 ms on average. Without streaming the screen stays empty for %4 ms, until its %Ln token is there.</numerusform>
            <numerusform>With streaming, the user of request %1 reads the first text after %2 ms (its time to first token) and then a token every %3 ms on average. Without streaming the screen stays empty for %4 ms, until all %Ln tokens are there at once.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::StrategiesPage</name>
    <message numerus="yes">
        <source>Running %n column(s) on one prefill of the prompt…</source>
        <translation>
            <numerusform>Running %Ln column on one prefill of the prompt…</numerusform>
            <numerusform>Running %Ln columns on one prefill of the prompt…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Prompt: %n token(s), prefilled once in %1 ms; every column forked from its KV blocks. KV pool at its peak: %2 KiB, sharing saved %3 KiB.</source>
        <translation>
            <numerusform>Prompt: %Ln token, prefilled once in %1 ms; every column forked from its KV blocks. KV pool at its peak: %2 KiB, sharing saved %3 KiB.</numerusform>
            <numerusform>Prompt: %Ln tokens, prefilled once in %1 ms; every column forked from its KV blocks. KV pool at its peak: %2 KiB, sharing saved %3 KiB.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Table measured: every column re-run with %n seed(s); the width-%1 beam took %2 ms.</source>
        <translation>
            <numerusform>Table measured: every column re-run with %Ln seed; the width-%1 beam took %2 ms.</numerusform>
            <numerusform>Table measured: every column re-run with %Ln seeds; the width-%1 beam took %2 ms.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::StrategyColumn</name>
    <message numerus="yes">
        <source>loop: a %n-token block repeated</source>
        <translation>
            <numerusform>loop: a %Ln-token block repeated</numerusform>
            <numerusform>loop: a %Ln-token block repeated</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>All %n begin with: &lt;i&gt;%1&lt;/i&gt;</source>
        <translation>
            <numerusform>%Ln beam begins with: &lt;i&gt;%1&lt;/i&gt;</numerusform>
            <numerusform>All %Ln begin with: &lt;i&gt;%1&lt;/i&gt;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n token(s) evaluated</source>
        <translation>
            <numerusform>%Ln token evaluated</numerusform>
            <numerusform>%Ln tokens evaluated</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n forward pass(es)</source>
        <translation>
            <numerusform>%Ln forward pass</numerusform>
            <numerusform>%Ln forward passes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::widgets::DistributionChart</name>
    <message numerus="yes">
        <source>top-k keeps %n tokens (beyond the %1 shown)</source>
        <translation>
            <numerusform>top-k keeps %Ln token (beyond the %1 shown)</numerusform>
            <numerusform>top-k keeps %Ln tokens (beyond the %1 shown)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>top-p keeps %n tokens (beyond the %1 shown)</source>
        <translation>
            <numerusform>top-p keeps %Ln token (beyond the %1 shown)</numerusform>
            <numerusform>top-p keeps %Ln tokens (beyond the %1 shown)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>min-p keeps %n tokens (beyond the %1 shown)</source>
        <translation>
            <numerusform>min-p keeps %Ln token (beyond the %1 shown)</numerusform>
            <numerusform>min-p keeps %Ln tokens (beyond the %1 shown)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::widgets::GanttView</name>
    <message numerus="yes">
        <source>step %1: prefill, %n prompt token(s)</source>
        <translation>
            <numerusform>step %1: prefill, %Ln prompt token</numerusform>
            <numerusform>step %1: prefill, %Ln prompt tokens</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::widgets::KvBlockTableView</name>
    <message numerus="yes">
        <source>Paged cache: each sequence&apos;s block table (logical block → pool block, %n position(s) per block)</source>
        <translation>
            <numerusform>Paged cache: each sequence&apos;s block table (logical block → pool block, %Ln position per block)</numerusform>
            <numerusform>Paged cache: each sequence&apos;s block table (logical block → pool block, %Ln positions per block)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The pool: %n block(s)</source>
        <translation>
            <numerusform>The pool: %Ln block</numerusform>
            <numerusform>The pool: %Ln blocks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n position(s)</source>
        <translation>
            <numerusform>%1: %Ln position</numerusform>
            <numerusform>%1: %Ln positions</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n block(s) in its table</source>
        <translation>
            <numerusform>%Ln block in its table</numerusform>
            <numerusform>%Ln blocks in its table</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::widgets::MaskStrip</name>
    <message numerus="yes">
        <source>The grammar removed %1 of the probability: it forbade %n token(s).</source>
        <translation>
            <numerusform>The grammar removed %1 of the probability: it forbade %Ln token.</numerusform>
            <numerusform>The grammar removed %1 of the probability: it forbade %Ln tokens.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::widgets::TokenStrip</name>
    <message numerus="yes">
        <source>The grammar forbade %n token(s) here, %1 of the probability.</source>
        <translation>
            <numerusform>The grammar forbade %Ln token here, %1 of the probability.</numerusform>
            <numerusform>The grammar forbade %Ln tokens here, %1 of the probability.</numerusform>
        </translation>
    </message>
</context>
</TS>
