export const VIEWER_PACKAGE = '@ckpt/viewer';
