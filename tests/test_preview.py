"""The HTML preview, driven in headless Chromium (Debian's package) through Playwright."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import ROOT, SEED_SOURCE
from helpers.browser import CHROMIUM, FLAGS, needs_chromium
from helpers.seed_expectations import ANSWERS, STEMS

from qti_builder import BuildOptions
from qti_builder.preview import build_preview

pytestmark = needs_chromium
HOSTILE = ROOT / "tests" / "fixtures" / "hostile-html.md"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("preview")
    build_preview(BuildOptions(sources=[SEED_SOURCE, ROOT / "source" / "content-showcase.md", HOSTILE]), out)
    return out


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go, to look at: $QTI_BUILDER_TEST_ARTIFACTS, else pytest's temporary
    folder (never the checkout)."""
    folder = os.environ.get("QTI_BUILDER_TEST_ARTIFACTS")
    if not folder:
        return tmp_path_factory.mktemp("artifacts")
    Path(folder).mkdir(parents=True, exist_ok=True)
    return Path(folder)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS[1:])
        yield browser
        browser.close()


def open_page(browser, url: str):  # type: ignore[no-untyped-def]
    page = browser.new_page(viewport={"width": 420, "height": 900})  # a phone-sized window
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
    page.goto(url)
    page.wait_for_load_state("load")
    return page, problems


def test_seed_quiz_preview(browser, site: Path, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, problems = open_page(browser, (site / "ray-train-tune.html").as_uri())
    assert page.locator("html").get_attribute("lang") == "ko"
    questions = page.locator("article.question")
    assert questions.count() == 10
    for index, stem in enumerate(STEMS):
        assert questions.nth(index).locator(".stem").inner_text().startswith(stem)

    first = questions.nth(0)
    toggle = first.locator("details.answer summary")
    assert toggle.inner_text() == "정답 보기"
    answer = first.locator("details.answer .correct").first
    assert not answer.is_visible()  # hidden until asked for
    toggle.focus()
    page.keyboard.press("Enter")  # keyboard-operable
    assert answer.is_visible()
    assert answer.inner_text() == f"정답: {ANSWERS[0]}"
    assert first.locator("details.answer li.correct").inner_text().startswith("✔")
    assert "워커 프로세스 실행" in first.locator("details.answer li.correct").inner_text()
    assert "Ray Train은 Ray의 task와 actor" in first.locator("details.answer .feedback-general").inner_text()

    code = questions.nth(1).locator("code", has_text="ray.train.torch.TorchTrainer").first
    assert code.is_visible()
    assert "mono" in code.evaluate("e => getComputedStyle(e).fontFamily").lower()

    page.screenshot(path=str(artifacts / "preview-seed.png"), full_page=True)
    assert problems == []


def test_content_showcase_renders_images_and_math(browser, site: Path, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, problems = open_page(browser, (site / "content-showcase.html").as_uri())
    image = page.locator("img[alt='Three blue boxes, one per worker']")
    image.scroll_into_view_if_needed()
    assert image.evaluate("e => e.complete && e.naturalWidth") == 220
    box = image.bounding_box()
    assert box and box["width"] > 0 and box["height"] > 0
    formula = page.locator("#q-math-question .stem math").last
    box = formula.bounding_box()
    assert box and box["width"] > 20 and box["height"] > 10
    page.locator("#q-image-question details.answer summary").click()
    korean_image = page.locator("img[alt='A colour gradient']")
    assert korean_image.evaluate("e => e.complete && e.naturalWidth") == 160
    page.screenshot(path=str(artifacts / "preview-content.png"), full_page=True)
    assert problems == []


def test_hostile_html_never_reaches_the_preview(browser, site: Path) -> None:  # type: ignore[no-untyped-def]
    page, problems = open_page(browser, (site / "hostile-html.html").as_uri())
    assert page.locator("#q-html-question .stem b").inner_text() == "bold stays"
    assert "this must vanish" not in page.content()
    assert problems == []


def test_serve_reloads_when_a_source_changes(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    source = tmp_path / "live.md"
    source.write_text("---\ntitle: Live\n---\n1. Before the edit? {#q1}\n\nA) yes\nB) no\n\nAnswer: A\n", encoding="utf-8")
    exe = Path(sys.executable).with_name("qti-builder")
    server = subprocess.Popen([str(exe), "serve", str(tmp_path), "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()  # type: ignore[union-attr]
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        page, problems = open_page(browser, url.group(0) + "live.html")
        assert page.locator(".stem").inner_text() == "Before the edit?"
        edited = source.read_text(encoding="utf-8").replace("Before the edit?", "After the edit!")
        changed = "document.querySelector('.stem') && document.querySelector('.stem').innerText === 'After the edit!'"
        for _ in range(4):  # the watcher may still be starting on a busy machine: save again
            time.sleep(0.5)
            source.write_text(edited, encoding="utf-8")
            try:
                page.wait_for_function(changed, timeout=8000)
                break
            except Exception:  # noqa: BLE001 - playwright's TimeoutError
                continue
        assert page.locator(".stem").inner_text() == "After the edit!"
        assert problems == []
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_preview_names_a_scoring_rule_instead_of_option_scores(tmp_path: Path) -> None:
    """Per-option scores belong to the partial rule; a rule on the whole answer is named as the
    source writes it (issue 30)."""
    from qti_builder.cli import app
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["preview", str(ROOT / "tests/fixtures/scoring-rules.md"), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "scoring-rules.html").read_text(encoding="utf-8")
    assert page.count("scoring=all_or_nothing") == 1 and page.count("scoring=exam incomplete_points=3") == 1
    assert "(50%)" in page and "(-50%)" in page  # the partial question's options: 2 right, each wrong takes a share
