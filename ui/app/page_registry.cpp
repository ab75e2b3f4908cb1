#include "ui/app/page_registry.h"

#include "ui/chat/chat_page.h"
#include "ui/kv/kv_page.h"
#include "ui/playground/playground_page.h"
#include "ui/serve/serve_page.h"
#include "ui/serving/serving_page.h"
#include "ui/strategies/strategies_page.h"

namespace dlab::ui {

namespace {
template <class P>
PageFactory make() {
    return [](QWidget* parent) -> Page* { return new P(parent); };
}
}  // namespace

const std::vector<PageFactory>& registeredPages() {
    static const std::vector<PageFactory> pages{
        make<PlaygroundPage>(),
        make<ChatPage>(),
        make<StrategiesPage>(),
        make<KvPage>(),
        make<ServePage>(),
        make<ServingLabPage>(),
    };
    return pages;
}

}  // namespace dlab::ui
