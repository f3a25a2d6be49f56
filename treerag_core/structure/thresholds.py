"""Every number the text rules decide by, in one place, each with why.

The rules err on the side of "body text": a false heading splits a section in the wrong
place and misleads navigation, which is worse than a missed one.
"""

from ..tree.sections import DEEPEST_HEADING

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
MAX_RUN_GAP = (
    2  # …and a run survives one page without it (a cover's second page, a full-page table)
)

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
MAX_LEVEL = DEEPEST_HEADING  # the tree's deepest level (tree/sections.py says why)
# Flat bookmarks are nested by their numbering only where most of a run of siblings is
# numbered ("PART I", "Item 1", "Item 1A"): a run of plain titles is the author's own level.
MIN_NESTED_RANKED_SHARE = 0.5

# --- typography (PDF lines with size, weight and position) -----------------------------------
SIZE_STEP = 0.5  # sizes are compared to the half point: 10.02 and 9.96 are one size
ROW_OVERLAP = 0.5  # two lines whose heights overlap by half sit on one row (table cells)
MIN_LARGER_PT = 0.9  # a bold line this much larger than the body is set apart by size…
MIN_LARGER_RATIO = 1.15  # …a regular one must be 15% larger
MAX_HEADING_LINES = 3  # a title wraps over at most three lines; more is a bold paragraph
MAX_HEADING_WORDS = 24  # "Item 5. Market for Registrant's Common Equity, … Securities"
MAX_HEADLINE_WORDS = 45  # a larger-than-body headline may fill its three lines…
MAX_HEADLINE_CHARS = 300  # …but no more
WRAP_GAP_RATIO = 0.8  # lines of one title are closer than 0.8 of their size
WRAP_ALIGN_RATIO = 2.0  # …and start (or centre) within two font sizes of each other
# …and a left-aligned title breaks only when full: a line ending short of the right edge by
# its next line's first word plus this many ems (a ragged margin's slack) stands alone
WRAP_ROOM_EMS = 2.0
SET_APART_RATIO = 0.4  # a body-size heading has this much of a line more space above it
# …or, where headings get no more space than paragraphs (PepsiCo's division review: "LatAm",
# "Europe" in bold body type, a paragraph's break above), a bold line of at most this many
# words, no sentence, between the end of a paragraph and a line of prose
MAX_RUN_TITLE_WORDS = 6
MIN_HEADING_LETTERS = 3
MIN_HEADING_LETTER_SHARE = 0.5  # "2022 2021 2020" and "$ 1,373" are table rows
OFF_COLUMN_SHARE = 0.25  # a heading starts within a quarter of the text width from its left…
CENTRED_SHARE = 0.1  # …or is centred on the page (within a tenth of its width)
MIN_ROW_FIGURES = 2  # a line ending in two amounts is a table row, and a label above it a cell
SHORT_LINE_SHARE = 0.2  # a keyword line ending a fifth of the width short of the margin
MIN_PROSE_WORDS = 6  # a line of six words, mostly lower case, is running text
MAX_LEAD_IN_WORDS = 6  # "Documents Incorporated by Reference:" labels a section; a longer
# line ending in a colon ("To the Shareholders … of Verizon Inc.:", "… is amended as
# follows:") introduces the text after it
# A page set in its own, larger body (an exhibit typed at 12 pt appended to a 10 pt report):
# its prose is judged against its own body when that style fills most of a page of prose.
PAGE_BODY_SHARE = 0.6
PAGE_BODY_MIN_CHARS = 600  # a cover or a chapter's title page is not a page of prose
# A title's characters take about half an em each; a line whose box is this many ems per
# character (twice that) has its words set apart in columns: a table's header row
# ("Name    Age    Office Held    Since") extracted as one line.
MAX_EMS_PER_CHAR = 1.0
MIN_TYPOGRAPHY_HEADINGS = 3  # fewer headings by style and the text rules do better
ANCHOR_SHARE = 0.5  # a style most of whose headings share one numbering level takes it

# --- printed tables of contents ------------------------------------------------------------
CONTENTS_SEARCH_PAGES = 12  # a table of contents starts within the first 12 pages…
CONTENTS_SEARCH_SHARE = 0.1  # …or the first tenth of a long book
MIN_CONTENTS_ENTRIES = 4  # a contents page lists at least four entries…
MIN_CONTENTS_SHARE = 0.5  # …that are half of its lines
MIN_NEXT_CONTENTS_ENTRIES = 2  # the pages that continue it may be short…
MIN_NEXT_CONTENTS_SHARE = 0.4  # …but are still mostly entries
CONTENTS_RIGHT_SLACK = 3.0  # a number set flush right ends within three font sizes of the edge
MAX_CONTENTS_TITLE_WORDS = 30
CENTRED_WIDTH_SHARE = 0.5  # a centred title is short: under half the width of the entries
CONTENTS_INDENT_STEP = 4.0
ROW_LOOKBACK = 3  # an entry's number may come after the entry's wrapped second line
HEADER_COLUMN_SHARE = 0.6  # a numberless line starting this far right heads the page column  # points of indentation that make one step of a level
CONTENTS_SAMPLE = 12  # the first entries, looked up to find the printed-to-physical shift
CONTENTS_MIN_SHIFT = -3  # a page labelled 12 is at least the 9th page…
CONTENTS_MAX_SHIFT = 80  # …and at most 80 pages after the 12th (long front matter)
CONTENTS_PAGE_SLACK = 2  # an entry's title is looked for up to two pages from its page
CONTENTS_DRIFT_PAGES = 12  # a long title found further away means the numbering drifted
MIN_DRIFT_TITLE_CHARS = 12
MIN_LOOKUP_CHARS = 4  # shorter titles ("5G") are placed by their page number alone
TITLE_RUN_ON_CHARS = 40  # the printed title may carry more than the entry ("… (continued)")
MIN_LOCATED_SHARE = 0.6  # a contents is trusted when most of its titles are found
# A printed heading that ends an entry's title ("Condensed … Statement of Income" under
# "A-1 - Condensed … Statement of Income") is that entry when it is this long (letters and
# digits): a short one ("Overview") ends many titles by chance.
MIN_SUFFIX_KEY = 16
