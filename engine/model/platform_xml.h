/* libxml2's streaming reader, loaded when a platform file is first read rather than when the
 * program starts: libxml2 brings ICU and the C++ runtime, which were a quarter of `situ`'s
 * start-up (`situ --version`, `situ model`), and most commands read no platform XML (the digest
 * is cached). The calls are libxml2's own, through this table. */
#ifndef SITU_PLATFORM_XML_H
#define SITU_PLATFORM_XML_H

#include <libxml/xmlreader.h>
#include <stdbool.h>
#include <stddef.h>

struct platform_xml {
    xmlTextReaderPtr (*reader_for_file)(const char *path, const char *encoding, int options);
    int (*read)(xmlTextReaderPtr r);
    int (*node_type)(xmlTextReaderPtr r);
    const xmlChar *(*local_name)(xmlTextReaderPtr r);
    const xmlChar *(*value)(xmlTextReaderPtr r);
    int (*move_to_attribute)(xmlTextReaderPtr r, const xmlChar *name);
    int (*move_to_next_attribute)(xmlTextReaderPtr r);
    void (*free_reader)(xmlTextReaderPtr r);
};

/* The table, loaded once (any thread); NULL with the loader's reason in err if libxml2 cannot be
 * loaded. */
const struct platform_xml *platform_xml(char *err, size_t errlen);

/* A reader of `path` as Situ reads platforms: no network, no messages of libxml2's own (a file
 * that is not XML names nothing; SimGrid's reason comes with the digest). NULL if the file
 * cannot be read. */
xmlTextReaderPtr platform_xml_open(const struct platform_xml *x, const char *path);

/* Whether the file at `path` may hold an element or attribute whose name contains `word`
 * ("file", "trace", "config"): false only when its bytes do not contain `word` at all, so that
 * the XML need not be parsed (nor libxml2 loaded) to know that it holds none. True when the file
 * cannot be read: the parse then says what it says. */
bool platform_xml_may_name(const char *path, const char *const *words);

#endif
