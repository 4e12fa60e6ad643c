"""`ragcite train`: rebuild the shipped support checker, reranker and sentence-choice
models (needs the `[train]` extra: scikit-learn)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from pathlib import Path

import click

_PATH = click.Path(path_type=Path)


def _packaged(package: str, name: str) -> Path:
    return Path(str(resources.files(package).joinpath(f"assets/{name}")))


def _rounds_and_workdir(command: Callable[..., None]) -> Callable[..., None]:
    """The `--rounds` and `--workdir` options of a command fitted on the blind rounds (one
    store per round under the work folder, shared by every such command)."""
    command = click.option(
        "--workdir",
        type=_PATH,
        default=Path("/tmp/ragcite_rounds"),
        show_default=True,
        help="Where each round's store is kept, reused by a rerun.",
    )(command)
    return click.option(
        "--rounds",
        type=click.Path(exists=True, file_okay=False, path_type=Path),
        default=Path("eval/rounds"),
        show_default=True,
        help="The blind rounds: rNN folders, each with docs/ and questions.tsv.",
    )(command)


def _model_and_card(card: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """The `--model` and `--card` options of a command that writes a model and its card."""

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        command = click.option(
            "--card",
            type=_PATH,
            default=Path(card),
            show_default=True,
            help="Model card to write (Markdown).",
        )(command)
        return click.option(
            "--model", type=_PATH, help="Model file to write. Default: the packaged one."
        )(command)

    return decorate


@click.group("train")
def train_group() -> None:
    """Rebuild the shipped learned models from the shared data sets (needs scikit-learn:
    pip install 'ragcite[train]')."""


@train_group.command("support")
@_model_and_card("docs/models/support-checker.md")
@click.option("--report", type=_PATH, help="Also write the whole training report as JSON.")
@click.option(
    "--cache",
    type=_PATH,
    default=Path("/tmp/ragcite_support_features.npz"),
    show_default=True,
    help="MiniLM signals, reused by a rerun on the same pairs (delete it after changing "
    "the signals).",
)
@click.option(
    "--max-per-source",
    type=click.IntRange(min=1),
    default=2000,
    show_default=True,
    help="Keep about this many pairs of each data set (whole groups), to bound CPU time.",
)
@click.option("--seed", type=int, default=13, show_default=True, help="Sampling and split seed.")
@click.option(
    "--before-model",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A previous support model file, measured on the same held-out pairs (a column "
    "of the card's table).",
)
@click.option(
    "--keep-overlap",
    is_flag=True,
    help="Also try direction-constrained forms and stack each shipped variant with word "
    "overlap, chosen on validation (an experiment: not how the shipped model is built).",
)
def train_support_command(
    model: Path | None,
    card: Path,
    report: Path | None,
    cache: Path,
    max_per_source: int,
    seed: int,
    before_model: Path | None,
    keep_overlap: bool,
) -> None:
    """Fit the support checker's learned layer; write the model and its model card."""
    from ragcite.train.support import SupportOptions, train_support

    options = SupportOptions(
        model=model or _packaged("ragcite.verify.support", "support_model.json"),
        card=card,
        report=report,
        cache=cache,
        max_per_source=max_per_source,
        seed=seed,
        before_model=before_model,
        keep_overlap=keep_overlap,
    )
    result = train_support(options)
    targets = result["targets"]
    click.echo(
        f"wrote {options.model} and {card}; RGB positive_wrong rejected on test "
        f"{targets['rgb_positive_wrong_test']['rejected']:.0%}, shipped macro-F1 "
        f"AttributionBench {targets['shipped_f1_attributionbench']:.3f}"
    )


@train_group.command("rerank")
@_model_and_card("docs/models/reranker.md")
@click.option(
    "--cache",
    type=_PATH,
    default=Path("/tmp/ragcite-rerank"),
    show_default=True,
    help="Folder for the corpora's stores and every vector computed, reused by a rerun.",
)
@click.option("--demo", type=_PATH, default=Path("demo"), show_default=True, help="Demo documents.")
@click.option(
    "--demo-questions",
    type=_PATH,
    default=Path("eval/demo.jsonl"),
    show_default=True,
    help="Labelled demo questions (evaluation only).",
)
@click.option(
    "--train-questions",
    type=click.IntRange(min=10),
    default=2000,
    show_default=True,
    help="HaluEval questions to train on (every fifth chooses the model).",
)
@click.option(
    "--heldout-questions",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Held-out HaluEval questions to report on.",
)
@click.option("--seed", type=int, default=13, show_default=True, help="Question split seed.")
def train_rerank_command(
    model: Path | None,
    card: Path,
    cache: Path,
    demo: Path,
    demo_questions: Path,
    train_questions: int,
    heldout_questions: int,
    seed: int,
) -> None:
    """Fit the learned reranker on HaluEval; write the model and its model card."""
    from ragcite.rerank.learned import packaged_model_path
    from ragcite.train.rerank import RerankOptions, train_rerank

    options = RerankOptions(
        model=model or packaged_model_path(),
        card=card,
        cache=cache,
        demo=demo,
        demo_questions=demo_questions,
        train_questions=train_questions,
        heldout_questions=heldout_questions,
        seed=seed,
    )
    result = train_rerank(options)
    halueval = result["table"]["HaluEval"]["hybrid + learned"]
    click.echo(
        f"wrote {options.model} and {card}; chose {result['chosen']}; held-out HaluEval "
        f"recall@1 {halueval['recall@1']:.3f}, MRR@10 {halueval['mrr@10']:.3f}"
    )


@train_group.command("sentences")
@click.option("--model", type=_PATH, help="Model file to write. Default: the packaged one.")
@click.option(
    "--cache",
    type=_PATH,
    default=Path("/tmp/ragcite_sentence_vectors.npz"),
    show_default=True,
    help="Every sentence vector computed, reused by a rerun.",
)
@click.option(
    "--halueval",
    type=click.IntRange(min=0),
    default=1500,
    show_default=True,
    help="HaluEval questions to use besides the SQuAD subset.",
)
@click.option("--seed", type=int, default=13, show_default=True, help="Paragraph split seed.")
def train_sentences_command(model: Path | None, cache: Path, halueval: int, seed: int) -> None:
    """Fit the extractive generator's sentence-choice model on SQuAD and HaluEval answers."""
    from ragcite.embed.minilm import MiniLMEmbedder
    from ragcite.train.rerank_data import DiskCachedEmbedder
    from ragcite.train.sentences import train_sentences

    path = model or _packaged("ragcite.generate", "sentence_choice.json")
    embedder = DiskCachedEmbedder(MiniLMEmbedder(), cache)
    report = train_sentences(path, embedder, halueval_limit=halueval, seed=seed)
    embedder.save()
    for source, figures in report["heldout"].items():
        click.echo(
            f"{source}: held-out top-1 {figures['top1_model']:.3f} "
            f"(cosine {figures['top1_cosine']:.3f}, {figures['questions']} questions)"
        )
    click.echo(f"wrote {path}")


@train_group.command("question-map")
@_rounds_and_workdir
@_model_and_card("docs/models/question-map.md")
def train_question_map_command(rounds: Path, model: Path | None, card: Path, workdir: Path) -> None:
    """Fit the extractive generator's question map on the blind rounds."""
    from ragcite.generate.extractive import SIMILARITY_WEIGHT
    from ragcite.train.question_map import train_question_map, write_map

    workdir.mkdir(parents=True, exist_ok=True)
    result = train_question_map(rounds, workdir, SIMILARITY_WEIGHT, progress=click.echo)
    path = model or _packaged("ragcite.generate", "question_adapter.npz")
    write_map(path, card, result, SIMILARITY_WEIGHT)
    report = result["report"]
    click.echo(
        f"held-out rounds: top-1 {report['heldout_top1_without']:.3f} -> "
        f"{report['heldout_top1_with']:.3f} ({report['cases']['heldout']} questions); "
        f"wrote {path} and {card}"
    )


@train_group.command("answer-decision")
@_rounds_and_workdir
@click.option(
    "--records",
    type=_PATH,
    default=Path("bench/out/answerability_records.jsonl"),
    show_default=True,
    help="The shared data's answerability records (python bench/answerability_records.py).",
)
@_model_and_card("docs/models/answer-decision.md")
def train_answer_decision_command(
    rounds: Path, records: Path, model: Path | None, card: Path, workdir: Path
) -> None:
    """Fit whether the extractive generator answers, on the rounds and the shared data."""
    from ragcite.config import GenerateSettings
    from ragcite.train.answer_decision import train_answer_decision
    from ragcite.train.answer_decision_card import write_decision
    from ragcite.train.answerability import load_records

    if not records.is_file():
        raise click.UsageError(
            f"--records {records}: no such file; build it with "
            "`python bench/answerability_records.py` first"
        )
    loaded = load_records(records)
    if not any(r.get("decision") for r in loaded):
        raise click.UsageError(
            f"--records {records} predates the answer decision's inputs; rebuild it with "
            "`python bench/answerability_records.py NEW.jsonl`"
        )
    workdir.mkdir(parents=True, exist_ok=True)
    floor = GenerateSettings().min_sentence_relevance
    result = train_answer_decision(rounds, workdir, loaded, floor, progress=click.echo)
    path = model or _packaged("ragcite.generate", "answer_decision.json")
    report = write_decision(path, card, result)
    floor_right, floor_wrong = report["rounds"]["all"]["floor"]
    right, wrong = report["rounds"]["all"]["learned"]
    test = report["shared"]["test"]
    click.echo(
        f"rounds, cross-validated: right / wrong {floor_right} / {floor_wrong} with the floor, "
        f"{right} / {wrong} learned (threshold {report['threshold']}); shared test split: "
        f"decline F1 {test['floor']['f1']:.3f} -> {test['learned']['f1']:.3f}, answered "
        f"{test['floor']['answered_answerable']:.3f} -> "
        f"{test['learned']['answered_answerable']:.3f}; wrote {path} and {card}"
    )


COMMANDS = [train_group]
