// Dear ImGui's build options for the native UI test (read through IMGUI_USER_CONFIG by ImGui, the ui room and
// the test alike): a failed IM_ASSERT becomes a test failure naming the expression and where it is, instead
// of an abort or nothing; and ImGui's test-engine item hooks are on, so the test learns where each labelled
// widget was drawn and can click it as a person would (ui_driver.cpp defines both).
#pragma once

void tierscope_imgui_assert_failed(const char* expr, const char* file, int line);
#define IM_ASSERT(expr) ((expr) ? (void)0 : tierscope_imgui_assert_failed(#expr, __FILE__, __LINE__))

#define IMGUI_ENABLE_TEST_ENGINE
