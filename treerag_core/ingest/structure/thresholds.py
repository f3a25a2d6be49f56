"""Every number the text rules decide by, in one place, each with why.

The rules err on the side of "body text": a false heading splits a section in the wrong
place and misleads navigation, which is worse than a missed one.
"""

# --- what a title looks like --------------------------------------------------------------
MAX_TITLE_WORDS = 16  # a longer line is a sentence, not a title
MAX_TITLE_CHARS = 150
LINE_SLACK_CHARS = 20  # a heading line may carry this much more: its number and punctuation
SENTENCE_TITLE_WORDS = 12  # a title ending in "." with more words than this is a sentence
MAX_RUN_IN_TITLE_WORDS = 10  # "Section 2.1 Definitions. As used…": a run-in title is short
MAX_KEYWORD_NUMBER_DIGITS = 2  # "Item 7A", "Note 12"; "Item 123" is a reference or a row

# Numbered headings ("2.1 Storage")
MAX_TOP_NUMBER = 99  # "1999 Sales…" is a year or an amount, not chapter 1999
MAX_NUMBERED_TITLE_WORDS = 12
MIN_TITLE_LETTERS = 3
MIN_NUMBERED_LETTER_SHARE = 0.7  # table rows ("1 2,345 6,789") are mostly digits
NUMBERED_SENTENCE_WORDS = 8  # "5 Outlet Centers in fiscal 2024." is a numbered sentence
FIRST_NUMBER_MAX = 2  # numbering starts at 1 (or 2 after an unnumbered preface)
MAX_NUMBER_JUMP = 2  # "4" after "2" may be a missed "3"; "9" after "2" is a list or a row

# ALL-CAPS headings
MIN_CAPS_CHARS = 4
MAX_CAPS_CHARS = 90
MIN_CAPS_LETTERS = 4
MIN_SINGLE_CAPS_WORD_LETTERS = 5  # "NET", "TOTAL" alone are table labels
MIN_CAPS_LETTER_SHARE = 0.8  # "2023 2022 CHANGE" is a table header
MAX_CAPS_WORDS = 12
MAX_CAPS_REPEATS = 3  # the same caps line three times is a label ("TOTAL"), not a section
MIN_PROSE_LOWERCASE = 3  # a caps heading introduces prose: lowercase words follow
MIN_PROSE_LETTER_SHARE = 0.6

# --- lines a title continues on ----------------------------------------------------------
MAX_TITLE_CONTINUATION_LINES = 2  # "Item 7." + "Management's Discussion…" + one more
MAX_BLANKS_BEFORE_TITLE = 2  # "Item 7." <blank> "Management's…": the title after a gap
MAX_CONTINUATION_CHARS = 130
# Extraction splits words of headings into fragments ("OVERVI" / "EW"); re-joined only on
# short lines, at most this many times.
MAX_GLUE_CHARS = 80
MAX_GLUED_FRAGMENTS = 3
MAX_SPACE_GLUE_CHARS = 40  # "Changes" / " in and Disagreements": joined with a space
MIN_GLUED_LINE_CHARS = 20  # a heading run into a paragraph's end needs a paragraph before it

# --- page furniture ------------------------------------------------------------------------
EDGE_LINES = 3  # running headers/footers sit in the first or last lines of a page
PAGE_NUMBER_EDGE_LINES = 2  # page numbers sit even closer to the edge
RUNNING_SHARE = 0.5  # a line on half of the pages is a running header or footer…
MIN_RUNNING_PAGES = 3  # …and on at least this many
RUN_OF_PAGES = 3  # a section's running head ("Item 1A") repeats on consecutive pages

# --- tables of contents --------------------------------------------------------------------
MIN_TOC_ENTRIES = 3  # fewer keyword headings on a page is not a table of contents
TOC_REPEATED_ALWAYS = 4  # a page whose headings come again later, four of them: a TOC…
TOC_REPEATED_SHARE = 0.6  # …or three that are most of the page's headings
TOC_PAGE_REF_LINES = 3  # lines ending in page numbers or dotted leaders…
TOC_PAGE_REF_SHARE = 0.5  # …that are half of the page's headings
TOC_REF_LINE_SHARE = 0.4  # a "Contents" page whose lines are mostly page references
MIN_TOC_PAGE_LINES = 8
TOC_TITLE_LINES = 6  # "Contents" / "Index" must be among a TOC page's first lines

# --- sequence and levels -------------------------------------------------------------------
MAX_NOTE_JUMP = 3  # "Note 13" after "Note 2" is a cross-reference, not the next note
MAX_LEVEL = 6  # Markdown's deepest heading
