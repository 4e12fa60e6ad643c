"""Text foundations every stage shares: the one word tokenizer and stopword lists, the
sentence splitter, print-mark normalisation and chunk-ID resolution."""
