"""treerag_core: vectorless, tree-navigating document Q&A.

read → sections → tree → summaries → outline → navigate → answer.

Everything a program (the app, the CLI, a library user) needs is importable from here; the
subpackages hold how it is done: ``ingest`` (formats, readers, structure, sections, tree,
summaries, indexing), ``store`` (the storage seam and the file store), ``llm`` (model calls,
providers, prompts, reply parsing), ``qa`` (navigation, answers, tree views), ``text``
(the offline engine's text tools), ``evaluation`` (retrieval metrics and the chunk
baseline) and ``access`` (principals, collections with readers and editors, the access
rules and the audit log), and ``tools`` (the registry as agent tools: LangChain tools
and the MCP server).
"""

from .access import (
    ADMIN_ROLE,
    EDITOR_ROLE,
    EVERYONE,
    READER_ROLE,
    AuthSettings,
    Principal,
    audit_log_jsonl,
    auth_settings,
    editable_collections,
    get_collection_access,
    list_collections,
    move_document,
    principal_from_claims,
    principal_from_headers,
    read_audit_log,
    record_sign_in,
    set_collection_access,
)
from .chat import (
    add_turn,
    create_thread,
    delete_regression_question,
    delete_thread,
    get_thread,
    history_of,
    list_threads,
    make_turn,
    parse_pages,
    questions_jsonl,
    reference_line,
    regression_questions,
    rename_thread,
    replace_answer,
    save_regression_question,
    set_feedback,
    thread_markdown,
    thumbs_down,
)
from .errors import (
    AccessDeniedError,
    BlockedURLError,
    ConfigError,
    DocumentNotFoundError,
    DocumentReadError,
    DocumentTooLargeError,
    EmptyDocumentError,
    FetchError,
    InvalidCollectionError,
    InvalidHistoryError,
    InvalidThreadError,
    JobsUnavailableError,
    LLMError,
    NotSignedInError,
    OcrUnavailableError,
    RegistryError,
    StoreUnavailableError,
    ThreadNotFoundError,
    TreeragError,
    UnsupportedFormatError,
)
from .evaluation.followups import FollowupEvaluation, evaluate_followups, followup_table
from .evaluation.loader import registry_loader
from .evaluation.page_texts import page_texts as evaluation_page_texts
from .evaluation.questions import InvalidQuestionsError, load_questions, parse_questions
from .evaluation.report import (
    format_report,
    gold_label,
    missed,
    retrieved_rows,
    summary_rows,
    summary_table,
)
from .evaluation.run import Evaluation, evaluate
from .ingest.formats import accepted_extensions, check_upload, supported_types
from .ingest.indexer import index_document, index_upload
from .ingest.outline import build_tree_outline, heading_label, page_label
from .ingest.sections import parse_sections
from .ingest.source import read_file, read_source
from .ingest.summarize import SummaryBudget, make_summarizer, null_summarizer, offline_summarizer
from .ingest.tree import build_hierarchy, flatten_tree, subtree_page_range
from .limits import Limits
from .llm.call import model_name
from .llm.prompts import SUMMARY_DOMAIN_PRESETS, summary_prompt_for
from .llm.providers import (
    DEFAULT_MODELS,
    PROVIDERS,
    check_connection,
    describe_settings,
    load_settings,
    make_llms,
    resolve_provider,
)
from .qa.answer import aask, aask_multi, ask, ask_multi
from .qa.evidence import sentence_offsets
from .qa.navigate import NavigationConfig
from .qa.render import (
    EvidencePage,
    EvidenceUnavailableError,
    crop_to_evidence,
    locate_evidence,
    render_evidence,
)
from .qa.result import AnswerMessage
from .qa.retriever import Retriever, make_async_retriever, make_retriever
from .qa.tree_view import (
    MAX_DRAWN_NODES,
    TreeSlice,
    ancestors,
    node_pages,
    outline_rows,
    root_ids,
    search_nodes,
    section_document,
    tree_slice,
)
from .store import is_database_url, open_store
from .store.api import (
    delete_document,
    get_document,
    get_document_by_id,
    list_documents,
    load_registry,
    save_document,
    save_registry,
)
from .store.base import DEFAULT_COLLECTION, DEFAULT_REGISTRY, DocumentStore
from .store.caches import DirectoryCache
from .store.export import InvalidImportError, export_documents, parse_import
from .store.transfer import export_registry, import_documents
from .text.ranking import RankingMemory
from .tools import RegistryTools, ToolArgumentError, make_tools

__all__ = [
    # errors
    "AccessDeniedError",
    "BlockedURLError",
    "ConfigError",
    "DocumentNotFoundError",
    "DocumentReadError",
    "DocumentTooLargeError",
    "EmptyDocumentError",
    "EvidenceUnavailableError",
    "FetchError",
    "InvalidCollectionError",
    "InvalidHistoryError",
    "InvalidThreadError",
    "InvalidImportError",
    "InvalidQuestionsError",
    "LLMError",
    "OcrUnavailableError",
    "NotSignedInError",
    "JobsUnavailableError",
    "RegistryError",
    "StoreUnavailableError",
    "ThreadNotFoundError",
    "ToolArgumentError",
    "TreeragError",
    "UnsupportedFormatError",
    # read → sections → tree → summaries → outline, and indexing
    "Limits",
    "SummaryBudget",
    "accepted_extensions",
    "build_hierarchy",
    "build_tree_outline",
    "check_upload",
    "crop_to_evidence",
    "flatten_tree",
    "index_document",
    "index_upload",
    "make_summarizer",
    "null_summarizer",
    "offline_summarizer",
    "parse_sections",
    "read_file",
    "read_source",
    "supported_types",
    # the store
    "DEFAULT_REGISTRY",
    "DirectoryCache",
    "DocumentStore",
    "delete_document",
    "export_documents",
    "export_registry",
    "get_document",
    "get_document_by_id",
    "is_database_url",
    "list_documents",
    "load_registry",
    "open_store",
    "import_documents",
    "parse_import",
    "save_document",
    "save_registry",
    # models
    "DEFAULT_MODELS",
    "PROVIDERS",
    "SUMMARY_DOMAIN_PRESETS",
    "describe_settings",
    "load_settings",
    "make_llms",
    "model_name",
    "resolve_provider",
    "summary_prompt_for",
    "check_connection",
    # navigate → answer, and the tree as people browse it
    "AnswerMessage",
    "EvidencePage",
    "NavigationConfig",
    "Retriever",
    "RankingMemory",
    "MAX_DRAWN_NODES",
    "TreeSlice",
    "aask",
    "aask_multi",
    "ancestors",
    "ask",
    "ask_multi",
    "locate_evidence",
    "make_async_retriever",
    "make_retriever",
    "node_pages",
    "outline_rows",
    "render_evidence",
    "heading_label",
    "page_label",
    "root_ids",
    "search_nodes",
    "section_document",
    "sentence_offsets",
    "subtree_page_range",
    "tree_slice",
    # the registry as agent tools (LangChain here; MCP: python -m treerag_core mcp)
    "RegistryTools",
    "make_tools",
    # evaluation
    "Evaluation",
    "FollowupEvaluation",
    "evaluate",
    "evaluate_followups",
    "evaluation_page_texts",
    "followup_table",
    "format_report",
    "gold_label",
    "load_questions",
    "missed",
    "parse_questions",
    "registry_loader",
    "retrieved_rows",
    "summary_rows",
    "summary_table",
    # conversations: threads per person, Markdown export, the regression set
    "add_turn",
    "create_thread",
    "delete_regression_question",
    "delete_thread",
    "get_thread",
    "history_of",
    "list_threads",
    "make_turn",
    "parse_pages",
    "questions_jsonl",
    "reference_line",
    "regression_questions",
    "rename_thread",
    "replace_answer",
    "save_regression_question",
    "set_feedback",
    "thread_markdown",
    "thumbs_down",
    # access: principals, collections, the audit log, identity modes
    "DEFAULT_COLLECTION",
    "ADMIN_ROLE",
    "EDITOR_ROLE",
    "READER_ROLE",
    "AuthSettings",
    "EVERYONE",
    "Principal",
    "audit_log_jsonl",
    "auth_settings",
    "editable_collections",
    "get_collection_access",
    "list_collections",
    "move_document",
    "principal_from_claims",
    "principal_from_headers",
    "read_audit_log",
    "record_sign_in",
    "set_collection_access",
]
