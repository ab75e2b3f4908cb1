#pragma once
// The pages of the main window, in tab order. Adding a page adds one line to page_registry.cpp.
#include <functional>
#include <vector>

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace dlab::ui {

class Page;

using PageFactory = std::function<Page*(QWidget* parent)>;
const std::vector<PageFactory>& registeredPages();

}  // namespace dlab::ui
