"""`damiera serve` in a real browser (issue 36, docs/serve.md): headless Chromium from Debian
driven by Selenium plays a legal English game to its end against the engine at depth 2, has an
illegal move refused, checks the notation each variant shows, analyses a shipped PDN with a
planted blunder, and checks a phone's width, that nothing comes from the network, and that
other origins are refused. Screenshots are saved (DAMIERA_SCREENSHOTS=docs/serve keeps them
for docs/serve.md).

The English game is checked move by move against pydraughts 0.6.7 (an independent rules
implementation, in the same .venv as the differential tests)."""
import http.client
import pathlib
import random
import re
import subprocess

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import DAMIERA, ROOT, Server, make_driver

PDN_DIR = ROOT / "tests" / "pdn"


def wait(d, js, timeout=30):
    WebDriverWait(d, timeout).until(lambda d: d.execute_script("return " + js))


def state(d, expr):
    return d.execute_script("return window.damiera." + expr)


def open_page(d, url):
    d.get(url)
    wait(d, "window.damiera && window.damiera.ready && window.damiera.position !== null")


def new_game(d, variant, engine="none", depth=2):
    Select(d.find_element(By.ID, "variant")).select_by_value(variant)
    Select(d.find_element(By.ID, "engine-side")).select_by_value(engine)
    Select(d.find_element(By.ID, "engine-limit")).select_by_value("depth")
    box = d.find_element(By.ID, "engine-depth")
    box.clear()
    box.send_keys(str(depth))
    d.find_element(By.ID, "fen").clear()
    d.find_element(By.ID, "new-game").click()
    wait(d, f"window.damiera.position.variant === '{variant}'")


def click_square(d, name):
    """A real pointer click at the square's centre (on its piece, if any, as a player's)."""
    square = d.find_element(By.CSS_SELECTOR, f'#board rect.square[data-square="{name}"]')
    ActionChains(d).move_to_element(square).click().perform()


def play(d, move, moves):
    """Plays `move` (an entry of the position's moves) by clicking its squares: the piece, then
    its last square, or every landing square when another capture shares both ends."""
    path = move["path"]
    click_square(d, path[0])
    same_ends = [m for m in moves if m["path"][0] == path[0] and m["path"][-1] == path[-1]]
    for square in (path[1:] if len(same_ends) > 1 else path[-1:]):
        click_square(d, square)


def coords(d):
    return {e.text for e in d.find_elements(By.CSS_SELECTOR, "#board text.coord")}


def test_a_legal_english_game_to_the_end_against_the_engine(server, browser, shots):
    from draughts import Board, Move  # pydraughts 0.6.7

    d = browser
    open_page(d, server.url)
    # The engine plays White at depth 2; the test plays Black (who moves first in English
    # checkers, WCDF rules) with moves chosen at random among the legal ones shown.
    new_game(d, "english", engine="white", depth=2)
    rng = random.Random(36)
    checker = Board("english")
    for _ in range(300):
        pos = state(d, "position")
        if pos["outcome"]:
            break
        assert pos["side"] == "black"
        n = len(pos["history"])
        play(d, rng.choice(pos["moves"]), pos["moves"])
        # The player's move, then the engine's (or the end of the game).
        wait(d, f"window.damiera.position.history.length >= {n + 2} || "
                f"(window.damiera.position.history.length === {n + 1} && "
                "window.damiera.position.outcome !== null)")
        if n == 10:
            shots(d, "english-game")
    pos = state(d, "position")
    assert pos["outcome"], "the game ended within 300 of the player's moves"
    history = pos["history"]
    # Every move of the game is legal for pydraughts, and the end is the same.
    for ply, move in enumerate(history, 1):
        try:
            checker.push(Move(checker, pdn_move=move))
        except Exception as error:  # pydraughts raises KeyError for an illegal move
            pytest.fail(f"ply {ply} {move} is not legal for pydraughts: {error!r}")
    if "wins" in pos["outcome"]:
        assert checker.legal_moves() == [], pos["outcome"]
    status = d.find_element(By.ID, "status").text
    assert pos["outcome"].split(":")[0] in status, status
    # The move list shows the game.
    shown = d.find_element(By.ID, "moves").text
    assert history[0] in shown and history[-1] in shown
    shots(d, "english-game-over")


def test_a_frisian_game_to_the_end_against_the_engine(server, browser, shots):
    """Frisian (issue 81): the engine plays White at depth 2, the test Black at random among
    the moves the page shows, to the end of the game; pydraughts' `frisian` Board checks every
    move (orthogonal captures, the capture value, the king-move limit) and the end."""
    from draughts import Board, Move  # pydraughts 0.6.7

    d = browser
    open_page(d, server.url)
    new_game(d, "frisian", engine="white", depth=2)
    rng = random.Random(81)
    for _ in range(400):
        pos = state(d, "position")
        if pos["outcome"]:
            break
        n = len(pos["history"])
        if pos["side"] == "white":  # the engine's first move
            wait(d, f"window.damiera.position.history.length > {n}")
            continue
        play(d, rng.choice(pos["moves"]), pos["moves"])
        wait(d, f"window.damiera.position.history.length >= {n + 2} || "
                f"(window.damiera.position.history.length === {n + 1} && "
                "window.damiera.position.outcome !== null)")
    pos = state(d, "position")
    assert pos["outcome"], "the game ended within 400 of the player's moves"
    checker = Board("frisian")
    for ply, move in enumerate(pos["history"], 1):
        try:
            checker.push(Move(checker, pdn_move=move))
        except Exception as error:
            pytest.fail(f"ply {ply} {move} is not legal for pydraughts: {error!r}")
    if "wins" in pos["outcome"]:
        assert checker.legal_moves() == [], pos["outcome"]
    else:
        assert checker.is_over(), pos["outcome"]
    status = d.find_element(By.ID, "status").text
    assert pos["outcome"].split(":")[0] in status, status
    shots(d, "frisian-game-over")


def test_an_illegal_move_is_refused(server, browser, shots):
    d = browser
    open_page(d, server.url)
    new_game(d, "english")
    start = state(d, "position")
    # Square 9's man can go to 13 or 14; 18 is two rows away.
    click_square(d, "9")
    targets = {e.get_attribute("data-square")
               for e in d.find_elements(By.CSS_SELECTOR, "#board rect.square.target")}
    assert targets == {"13", "14"}, targets
    click_square(d, "18")
    wait(d, "document.getElementById('error').textContent.length > 0", 5)
    assert "not a legal move" in d.find_element(By.ID, "error").text
    assert state(d, "position.history") == []
    assert state(d, "position.fen") == start["fen"]
    pieces = {e.get_attribute("data-square")
              for e in d.find_elements(By.CSS_SELECTOR, "#board g.piece")}
    assert "9" in pieces and "18" not in pieces
    shots(d, "illegal-move-refused")
    # A bad FEN gets its one-line error, and the game stays.
    d.find_element(By.ID, "fen").send_keys("W:W31,32:B1,zz")
    d.find_element(By.ID, "new-game").click()
    wait(d, "document.getElementById('error').textContent.includes('FEN')", 5)
    assert "column" in d.find_element(By.ID, "error").text
    assert state(d, "position.fen") == start["fen"]
    # The error names its request (`new`), so the page stops waiting for that game and the
    # player moves on at once.
    click_square(d, "9")
    click_square(d, "13")
    wait(d, "window.damiera.position.history.length === 1", 5)
    assert state(d, "position.history") == ["9-13"]


def test_each_variant_shows_its_own_notation(server, browser, shots):
    d = browser
    open_page(d, server.url)
    new_game(d, "international")
    # FMJD numbering: 50 squares, 1 at the top (b10 from White's side), 46 at a1.
    assert len(d.find_elements(By.CSS_SELECTOR, "#board rect.square")) == 50
    assert {str(n) for n in range(1, 51)} <= coords(d)
    assert len(d.find_elements(By.CSS_SELECTOR, '#board g.piece[data-color="white"]')) == 20
    shots(d, "international")
    new_game(d, "russian")
    # Russian: algebraic squares, files a-h below and ranks 1-8 beside the board.
    squares = {e.get_attribute("data-square")
               for e in d.find_elements(By.CSS_SELECTOR, "#board rect.square")}
    assert "c3" in squares and "a1" in squares and len(squares) == 32
    assert set("abcdefgh") | {str(n) for n in range(1, 9)} <= coords(d)
    assert not {str(n) for n in range(9, 33)} & coords(d)
    shots(d, "russian")
    new_game(d, "italian")
    # Italian: a light square at White's bottom-left, 1 at a8 (FID 2.4); 32 at h1.
    names = {e.get_attribute("data-square")
             for e in d.find_elements(By.CSS_SELECTOR, "#board rect.square")}
    assert names == {str(n) for n in range(1, 33)}
    shots(d, "italian")


def test_italian_damone_offers_its_end_of_game_rule(server, browser, shots):
    d = browser
    open_page(d, server.url)
    new_game(d, "english")
    assert not d.find_element(By.ID, "damone-win").is_displayed()
    # Ruling I.4's option (docs/rules.md, Italian Damone): with `damones`, taking the last
    # Damone wins. White's Damone on e4 takes Black's on d5.
    Select(d.find_element(By.ID, "variant")).select_by_value("damone")
    rule = d.find_element(By.ID, "damone-win")
    assert rule.is_displayed()
    Select(rule).select_by_value("damones")
    d.find_element(By.ID, "fen").send_keys("W:WIe4,Kb1:BId5,Kh7")
    d.find_element(By.ID, "new-game").click()
    wait(d, "window.damiera.position.variant === 'damone'", 5)
    assert state(d, "position.damone_win") == "damones"
    click_square(d, "e4")
    click_square(d, "c6")
    wait(d, "window.damiera.position.outcome !== null", 5)
    assert "last Damone" in d.find_element(By.ID, "status").text
    shots(d, "damone-last-damone-taken")
    # The default rule plays on after the same capture.
    Select(rule).select_by_value("all")
    d.find_element(By.ID, "new-game").click()
    wait(d, "window.damiera.position.damone_win === 'all'", 5)
    click_square(d, "e4")
    click_square(d, "c6")
    wait(d, "window.damiera.position.history.length === 1", 5)
    assert state(d, "position.outcome") is None


def test_a_shipped_pdn_is_analysed_and_its_blunder_marked(server, browser, shots):
    d = browser
    open_page(d, server.url)
    text = (PDN_DIR / "blunder.pdn").read_text()
    # The plies of the move text (after the last tag line), counted here from the file.
    movetext = text[text.rindex("]") + 1:]
    plies = len(re.findall(r"\b\d+[-x]\d+\b", movetext))
    d.find_element(By.ID, "pdn-text").send_keys(text)
    depth = d.find_element(By.ID, "pdn-depth")
    depth.clear()
    depth.send_keys("10")
    d.find_element(By.ID, "analyse-pdn").click()
    wait(d, "window.damiera.analysis !== null", 120)
    a = state(d, "analysis")
    assert len(a["plies"]) == plies == 11
    # One point per ply on the graph.
    assert state(d, "graph.data[0].length") == plies
    assert state(d, "graph.data[1].length") == plies
    # The planted blunder, Black's 5. 12-16, is marked on the graph's list, and only it.
    marks = d.find_elements(By.CSS_SELECTOR, '#marks li.mark[data-mark="??"]')
    assert [m.get_attribute("data-ply") for m in marks] == ["9"]
    assert "12-16" in marks[0].text
    d.execute_script("document.getElementById('graph').scrollIntoView({block: 'center'})")
    shots(d, "analysis-graph")
    # Clicking it shows the position before it, the move and the better move as arrows.
    marks[0].click()
    wait(d, "document.getElementById('ply-view').textContent.includes('12-16??')", 5)
    view = d.find_element(By.ID, "ply-view").text
    assert "best" in view and "refuted by" in view, view
    assert d.find_elements(By.CSS_SELECTOR, "#board g.arrow.best")
    d.execute_script("window.scrollTo(0, 0)")
    shots(d, "analysis-blunder")
    assert "12-16??" in a["pdn"] and "blunders: 5. 12-16??" in a["report"]
    assert d.find_element(By.ID, "export-pdn").is_enabled()
    d.find_element(By.ID, "back-to-game").click()
    # A PDN with an illegal move: its line and column on the page.
    box = d.find_element(By.ID, "pdn-text")
    box.clear()
    box.send_keys((PDN_DIR / "errors.pdn").read_text())
    d.find_element(By.ID, "analyse-pdn").click()
    wait(d, "document.getElementById('error').textContent.includes('line 5, column 33')", 30)
    assert state(d, "analysis.plies.length") == plies  # the analysis shown stays


def test_the_page_works_on_a_phone_and_without_the_network(server, shots):
    d = make_driver(360, 780, phone=True)
    try:
        open_page(d, server.url)
        new_game(d, "english")
        width = d.execute_script("return document.documentElement.scrollWidth")
        assert width <= 360, f"the page is {width} px wide on a 360 px screen"
        board = d.find_element(By.ID, "board").rect
        assert 300 <= board["width"] <= 360, board
        click_square(d, "11")
        click_square(d, "15")
        wait(d, "window.damiera.position.history.length === 1", 10)
        shots(d, "phone")
        # Everything the page loaded came from the server itself: nothing from the network.
        loaded = d.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name)")
        assert loaded, "the page loads its scripts and styles"
        foreign = [u for u in loaded if not u.startswith(server.url)
                   and not u.startswith(server.url.replace("http", "ws"))
                   and not u.startswith("data:")]
        assert foreign == []
    finally:
        d.quit()


def test_requests_from_other_origins_are_refused(server, browser):
    for path, extra in [("/", {}), ("/ws", {"Upgrade": "websocket", "Connection": "Upgrade",
                                           "Sec-WebSocket-Version": "13",
                                           "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})]:
        c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        c.request("GET", path, headers={"Origin": "http://evil.example", **extra})
        r = c.getresponse()
        assert r.status == 403, (path, r.status)
        assert b"another origin" in r.read()
        c.close()
    # A page of another origin in the browser cannot open the engine's WebSocket.
    d = browser
    d.get("data:text/html,<title>other</title>")
    opened = d.execute_async_script(f"""
        const done = arguments[arguments.length - 1];
        const ws = new WebSocket('ws://127.0.0.1:{server.port}/ws');
        ws.onopen = () => done('open');
        ws.onerror = () => done('refused');
    """)
    assert opened == "refused"


def test_the_level_select_offers_every_level_and_the_engine_plays_at_it(server, browser, shots):
    from draughts import Board, Move  # pydraughts 0.6.7

    d = browser
    open_page(d, server.url)
    options = [o.text for o in Select(d.find_element(By.ID, "engine-level")).options]
    # Levels 20 down to 0, the strongest first; 20 is full strength, 0 random moves, and every
    # level shows its approximate Elo from the server's ladder.
    assert len(options) == 21, options
    assert options[0].startswith("20 (full strength)") and options[-1].startswith("0 (random")
    elos = [int(re.search(r"≈ (-?\d+) Elo", o).group(1)) for o in options[:-1]]
    assert elos == sorted(elos, reverse=True) and elos[0] > elos[-1], elos
    # Record what the page sends, then let the engine play White at level 3.
    d.execute_script(
        "window.sentMessages = [];"
        "const send = WebSocket.prototype.send;"
        "WebSocket.prototype.send = function (m) { window.sentMessages.push(m);"
        " return send.call(this, m); };")
    Select(d.find_element(By.ID, "engine-level")).select_by_value("3")
    new_game(d, "english", engine="white", depth=6)
    checker = Board("english")
    pos = state(d, "position")
    play(d, pos["moves"][0], pos["moves"])
    wait(d, "window.damiera.position.history.length >= 2")
    sent = d.execute_script("return window.sentMessages")
    gos = [m for m in sent if '"type":"go"' in m.replace(" ", "")]
    assert gos and '"level":3' in gos[-1].replace(" ", ""), sent
    for move in state(d, "position")["history"]:
        checker.push(Move(checker, pdn_move=move))
    shots(d, "level-select")


def probe(book, fen):
    """The moves `damiera book probe BOOK --fen FEN` gives, best first: (name, centi-men)."""
    out = subprocess.run([DAMIERA, "book", "probe", str(book), "--fen", fen],
                         capture_output=True, text=True, check=True).stdout
    return [(f[0], int(f[4])) for f in (line.split() for line in out.splitlines()[1:])]


def shown_book(d):
    return [(li.get_attribute("data-move"), li.find_element(By.CSS_SELECTOR, ".score").text)
            for li in d.find_elements(By.CSS_SELECTOR, "#book li.book-move")]


def test_the_book_panel_shows_the_positions_book_moves(server, browser, shots, tmp_path):
    d = browser
    # Without --book (the module's server) the panel says there is none.
    open_page(d, server.url)
    wait(d, "document.getElementById('book-note').textContent.length > 0")
    assert "No opening book" in d.find_element(By.ID, "book-note").text
    assert shown_book(d) == []
    # A tiny English book, built by the binary.
    book = tmp_path / "english.dmbk"
    subprocess.run([DAMIERA, "book", "build", "--variant", "english", "--positions", "12",
                    "--depth", "2", "--out", str(book)], capture_output=True, check=True)
    with_book = Server("--book", str(book))
    try:
        open_page(d, with_book.url)
        wait(d, "document.querySelectorAll('#book li.book-move').length > 0")
        start = state(d, "position")
        # Best first, as `book probe` gives them; scores in men from White's view (Black
        # moves first in English).
        expected = [(name, f"{-cm / 100:+.2f}") for name, cm in probe(book, start["fen"])]
        assert len(expected) == 7
        assert shown_book(d) == expected
        d.execute_script("document.getElementById('book-panel').scrollIntoView()")
        shots(d, "book-panel")
        # A click on a book move plays it; the panel follows the new position.
        first = expected[0][0]
        d.find_element(By.CSS_SELECTOR, f'#book li.book-move[data-move="{first}"] button').click()
        wait(d, "window.damiera.position.history.length === 1")
        pos = state(d, "position")
        assert pos["history"] == [first]
        after = [(name, f"{cm / 100:+.2f}") for name, cm in probe(book, pos["fen"])]
        wait(d, f"document.querySelectorAll('#book li.book-move').length === {len(after)}")
        assert shown_book(d) == after
    finally:
        with_book.stop()
