/*
 * yamlpos.c - where a node sits in a YAML file (line and column), for the
 * tables' error messages (see yamlpos.h).
 */
#include "tables/yamlpos.h"

#include <stdio.h>
#include <string.h>
#include <yaml.h>

#define MAX_DEPTH 16
#define KEY_MAX 128

typedef struct {
	bool is_map;
	bool want_key;       /* map: the next scalar is a key */
	int index;           /* seq: index of the next item */
	char key[KEY_MAX];   /* map: the key of the value being read */
} frame;

/* Does the value about to start (a child of stack[depth-1]) sit at path? */
static bool at_path(const frame *stack, int depth, const ts_ypath *path,
		    int pdepth)
{
	if (depth != pdepth)
		return false;
	for (int i = 0; i < depth; i++) {
		const frame *f = &stack[i];
		const ts_ypath *p = &path[i];
		if (f->is_map) {
			if (!p->key || strcmp(p->key, f->key) != 0)
				return false;
		} else if (p->key || p->index != f->index) {
			return false;
		}
	}
	return true;
}

/* Open file for libyaml; false (nothing to free) when it cannot be read. */
static bool open_parser(const char *file, FILE **fp, yaml_parser_t *parser)
{
	*fp = fopen(file, "rb");
	if (!*fp)
		return false;
	if (!yaml_parser_initialize(parser)) {
		fclose(*fp);
		return false;
	}
	yaml_parser_set_input_file(parser, *fp);
	return true;
}

/* A value finished: the parent moves on to its next key or item. */
static void advance(frame *stack, int depth)
{
	if (depth == 0)
		return;
	frame *f = &stack[depth - 1];
	if (f->is_map)
		f->want_key = true;
	else
		f->index++;
}

bool ts_yaml_locate(const char *file, const ts_ypath *path, int pdepth,
		    bool want_key, int *line, int *col)
{
	*line = 1;
	*col = 1;
	FILE *fp;
	yaml_parser_t parser;
	if (!open_parser(file, &fp, &parser))
		return false;
	frame stack[MAX_DEPTH];
	int depth = 0;
	bool found = false, done = false;
	while (!done && !found) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&parser, &ev))
			break;
		bool is_key = depth > 0 && stack[depth - 1].is_map &&
			      stack[depth - 1].want_key && ev.type == YAML_SCALAR_EVENT;
		if (is_key) {
			frame *f = &stack[depth - 1];
			snprintf(f->key, sizeof f->key, "%s", (const char *)ev.data.scalar.value);
			f->want_key = false;
			if (want_key && pdepth > 0 && at_path(stack, depth, path, pdepth)) {
				*line = (int)ev.start_mark.line + 1;
				*col = (int)ev.start_mark.column + 1;
				found = true;
			}
		} else {
			switch (ev.type) {
			case YAML_SCALAR_EVENT:
			case YAML_ALIAS_EVENT:
			case YAML_MAPPING_START_EVENT:
			case YAML_SEQUENCE_START_EVENT:
				if (pdepth > 0 && at_path(stack, depth, path, pdepth)) {
					*line = (int)ev.start_mark.line + 1;
					*col = (int)ev.start_mark.column + 1;
					found = true;
					break;
				}
				if (ev.type == YAML_MAPPING_START_EVENT ||
				    ev.type == YAML_SEQUENCE_START_EVENT) {
					if (depth == MAX_DEPTH) {
						done = true;
						break;
					}
					frame *f = &stack[depth++];
					memset(f, 0, sizeof *f);
					f->is_map = ev.type == YAML_MAPPING_START_EVENT;
					f->want_key = f->is_map;
				} else {
					advance(stack, depth);
				}
				break;
			case YAML_MAPPING_END_EVENT:
			case YAML_SEQUENCE_END_EVENT:
				if (depth > 0)
					depth--;
				advance(stack, depth);
				break;
			case YAML_STREAM_END_EVENT:
				done = true;
				break;
			default:
				break;
			}
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	fclose(fp);
	return found;
}

bool ts_yaml_syntax_error(const char *file, int *line, int *col, char *msg,
			  size_t len)
{
	FILE *fp;
	yaml_parser_t parser;
	if (!open_parser(file, &fp, &parser))
		return false;
	bool bad = false;
	for (;;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&parser, &ev)) {
			bad = true;
			*line = (int)parser.problem_mark.line + 1;
			*col = (int)parser.problem_mark.column + 1;
			snprintf(msg, len, "%s%s%s", parser.problem ? parser.problem : "syntax error",
				 parser.context ? " " : "", parser.context ? parser.context : "");
			break;
		}
		bool end = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
		if (end)
			break;
	}
	yaml_parser_delete(&parser);
	fclose(fp);
	return bad;
}

int ts_yaml_seq_lines(const char *file, const char *key, int *lines, int max)
{
	FILE *fp;
	yaml_parser_t parser;
	if (!open_parser(file, &fp, &parser))
		return 0;
	int depth = 0, n = 0;
	bool top_key_next = false, in_seq = false, want_key = true;
	for (;;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&parser, &ev))
			break;
		bool end = ev.type == YAML_STREAM_END_EVENT;
		switch (ev.type) {
		case YAML_SCALAR_EVENT:
			if (depth == 1 && want_key) {
				top_key_next = strcmp((const char *)ev.data.scalar.value, key) == 0;
				want_key = false;
			} else if (depth == 1) {
				want_key = true;
			} else if (depth == 2 && in_seq && n < max) {
				lines[n++] = (int)ev.start_mark.line + 1;
			}
			break;
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT:
			if (depth == 1 && ev.type == YAML_SEQUENCE_START_EVENT && top_key_next)
				in_seq = true;
			else if (depth == 2 && in_seq && n < max)
				lines[n++] = (int)ev.start_mark.line + 1;
			depth++;
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			depth--;
			if (depth == 1) {
				/* the sequence is over: the rest of the file cannot add */
				end |= in_seq;
				in_seq = false;
				top_key_next = false;
				want_key = true;
			}
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
		if (end || n == max)
			break;
	}
	yaml_parser_delete(&parser);
	fclose(fp);
	return n;
}
