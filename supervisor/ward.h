/*
 * ward.h - what every part of the ward program shares: its exit statuses.
 */
#ifndef WARD_H
#define WARD_H

/* Exit statuses (DESIGN.md §4). */
#define WARD_EXIT_FAILURE 125
#define WARD_EXIT_NOEXEC 126
#define WARD_EXIT_NOTFOUND 127
#define WARD_EXIT_USAGE 2

#endif
