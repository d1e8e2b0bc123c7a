// What Open must say before it hands an attachment to the system (issue 29 §1). Opening a document shows it;
// opening a program runs it, with the person's rights, and a sender can name a program to look like a document
// ("invoice\u202Efdp.exe"). Pure, in shared/ so the page words the question and the main process refuses an
// unconfirmed open (electron/mail/attachments/open-attachment.ts) from the same list.
import { safeFileName } from './safe-file-name.ts';

// SECURITY: what the common desktops run, or hand to an interpreter, when it is opened: Windows programs,
// installers and scripts; shortcuts and launchers (.lnk, .desktop, .url, .webloc) that run whatever they name;
// Unix shell scripts and macOS apps; Java; Office documents that carry macros; disk images and packages that
// install or mount programs.
const programs = new Set(
  [
    'exe com scr pif bat cmd msi msp msix appx cpl dll sys ps1 psm1 psd1 vbs vbe js jse mjs wsf wsh hta jar',
    'reg inf scf lnk url website library-ms settingcontent-ms application gadget chm',
    'desktop sh bash zsh csh ksh fish command tool run bin appimage deb rpm snap flatpakref py pyw pl rb php',
    'app pkg mpkg dmg iso img vhd vhdx webloc terminal workflow scpt applescript',
    'docm dotm xlsm xltm xlsb xlam pptm potm ppam ppsm sldm',
  ]
    .join(' ')
    .split(' '),
);

// The same by the type the sender declared, for a program sent under a harmless name.
const programTypes =
  /^(application\/(x-msdownload|x-ms-installer|x-msi|x-dosexec|x-executable|x-elf|x-sh|x-shellscript|x-bat|x-csh|javascript|x-javascript|ecmascript|java-archive|x-java-archive|x-desktop|x-apple-diskimage|vnd\.microsoft\.portable-executable|hta|x-ms-shortcut|vnd\.ms-[a-z.]*macroenabled[a-z.0-9]*)|text\/(javascript|x-sh|x-shellscript|ecmascript))$/i;

/** The file's extension as it would be written on disk (after safeFileName), lower case, without the dot. */
function extensionOf(name: string): string {
  const safe = safeFileName(name);
  const dot = safe.lastIndexOf('.');
  return dot <= 0 ? '' : safe.slice(dot + 1).toLowerCase();
}

/**
 * The sentence to show, and have confirmed, before an attachment is opened with the system's application; null
 * for a document that opening only shows.
 */
export function openWarning(name: string, contentType: string): string | null {
  const extension = extensionOf(name);
  const type = contentType.split(';')[0]?.trim() ?? '';
  const byName = programs.has(extension);
  if (!byName && !programTypes.test(type)) return null;
  const what = byName ? `a .${extension} file` : `of the type ${type}`;
  return (
    `"${safeFileName(name)}" is ${what}: opening it can run a program on this computer with your rights. ` +
    'Open it only if you expected it from this sender.'
  );
}
