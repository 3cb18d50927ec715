/* Sizes of the explorer's text buffers that several parts of its state share (app.h and the
 * feature states it holds: lesson_state.h, script_state.h). */
#ifndef SITU_TUI_APP_SIZES_H
#define SITU_TUI_APP_SIZES_H

#include "../../engine/model/params.h"

#define APP_MSG_MAX (PARAMS_ERR_MAX + 64) /* a one-line message: a notice, a goal's, an error */

#endif
